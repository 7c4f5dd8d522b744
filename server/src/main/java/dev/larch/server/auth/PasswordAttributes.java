package dev.larch.server.auth;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

/**
 * The attributes that hold password material: {@code userPassword} (RFC 4519), {@code authPassword}
 * (RFC 3112), {@code pwdHistory} (behera draft) and every attribute type derived from one of them.
 * Their values are shown to the administrator alone, masked in the access log, and (for
 * {@code userPassword} and its subtypes) hashed before they are stored.
 *
 * <p>Attribute options such as {@code userPassword;x-foo} name the same type and so are covered.
 * Immutable and thread-safe.
 */
public final class PasswordAttributes {
    /** OID of userPassword. */
    public static final String USER_PASSWORD_OID = "2.5.4.35";
    /** OID of authPassword (RFC 3112). */
    public static final String AUTH_PASSWORD_OID = "1.3.6.1.4.1.4203.1.3.4";
    /** OID of pwdHistory (draft-behera-ldap-password-policy). */
    public static final String PWD_HISTORY_OID = "1.3.6.1.4.1.42.2.27.8.1.20";

    /** The three standard types, by OID and name, for when no schema is at hand. */
    public static final PasswordAttributes STANDARD = new PasswordAttributes(
            Set.of(USER_PASSWORD_OID, AUTH_PASSWORD_OID, PWD_HISTORY_OID),
            Set.of(USER_PASSWORD_OID),
            Set.of(
                    "userpassword",
                    "authpassword",
                    "pwdhistory",
                    USER_PASSWORD_OID,
                    AUTH_PASSWORD_OID,
                    PWD_HISTORY_OID));

    /** The prefix RFC 2252 allowed before an OID ({@code OID.2.5.4.35}), which clients still send. */
    private static final String OID_PREFIX = "oid.";

    private final Set<String> protectedOids;
    private final Set<String> hashedOids;
    /** Lower-case names and OIDs of the protected types, for text that has no schema (the access log). */
    private final Set<String> protectedNames;
    /** {@link #protectedNames} as an array, for {@link #isProtectedDescription}'s scan (a handful of names). */
    private final String[] protectedNameList;

    private PasswordAttributes(Set<String> protectedOids, Set<String> hashedOids, Set<String> protectedNames) {
        this.protectedOids = Set.copyOf(protectedOids);
        this.hashedOids = Set.copyOf(hashedOids);
        this.protectedNames = Set.copyOf(protectedNames);
        this.protectedNameList = this.protectedNames.toArray(String[]::new);
    }

    /** The standard types plus every type in {@code schema} that derives from one of them. */
    public static PasswordAttributes of(SchemaManager schema) {
        Set<String> protectedOids = new HashSet<>(STANDARD.protectedOids);
        Set<String> hashedOids = new HashSet<>(STANDARD.hashedOids);
        Set<String> names = new HashSet<>(STANDARD.protectedNames);
        for (AttributeType type : schema.getAttributeTypeRegistry()) {
            if (derivesFrom(type, STANDARD.protectedOids)) {
                protectedOids.add(type.getOid());
                names.add(type.getOid());
                type.getNames().forEach(n -> names.add(n.toLowerCase(Locale.ROOT)));
            }
            if (derivesFrom(type, STANDARD.hashedOids)) {
                hashedOids.add(type.getOid());
            }
        }
        return new PasswordAttributes(protectedOids, hashedOids, names);
    }

    /** OIDs of the attributes only the administrator may read or test in filters. */
    public Set<String> protectedOids() {
        return protectedOids;
    }

    /** Whether the values of {@code oid} are password material. */
    public boolean isProtected(String oid) {
        return protectedOids.contains(oid);
    }

    /** Whether values written to {@code oid} are hashed before they are stored ({@code userPassword} and subtypes). */
    public boolean isHashedOnWrite(String oid) {
        return hashedOids.contains(oid);
    }

    /**
     * Whether an attribute description as a client wrote it ({@code userPassword},
     * {@code USERPASSWORD;x-foo}, {@code 2.5.4.35}) names password material.
     */
    public boolean isProtectedDescription(String description) {
        if (description == null) {
            return false;
        }
        // Compared in place: the access log asks for every filter it writes, and copying, lower-casing
        // and a regular expression per call came to about 400 bytes and a regex match per search.
        int end = description.indexOf(';');
        if (end < 0) {
            end = description.length();
        }
        int start = 0;
        while (start < end && description.charAt(start) <= ' ') {
            start++;
        }
        while (end > start && description.charAt(end - 1) <= ' ') {
            end--;
        }
        if (end - start > OID_PREFIX.length()
                && description.regionMatches(true, start, OID_PREFIX, 0, OID_PREFIX.length())) {
            start += OID_PREFIX.length();
        }
        for (String name : protectedNameList) {
            if (name.length() == end - start && description.regionMatches(true, start, name, 0, name.length())) {
                return true;
            }
        }
        return false;
    }

    private static boolean derivesFrom(AttributeType type, Set<String> roots) {
        // Superior chains are short and acyclic in a loaded schema; the bound guards a broken one.
        AttributeType t = type;
        for (int depth = 0; t != null && depth < 32; depth++) {
            if (roots.contains(t.getOid())) {
                return true;
            }
            t = t.getSuperior();
        }
        return false;
    }
}
