package dev.larch.e2e.sync;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;

/**
 * An entry as two replicas must agree on it: its normalized DN and, per attribute (name in lower
 * case), its values in a canonical order. Every user attribute read with {@code *} and every
 * operational attribute read with {@code +} is compared, the replicated stamps included
 * ({@code entryUUID}, {@code entryCSN}, {@code createTimestamp}, {@code modifyTimestamp},
 * {@code creatorsName}, {@code modifiersName}, {@code structuralObjectClass}), except
 * {@link #IGNORED}.
 *
 * <p>Values are compared as the bytes the server returned (a consumer stores what the provider
 * sent), except where the syntax makes two spellings equal: DN-valued attributes are compared as
 * normalized DNs and object class names in lower case.
 */
record ComparedEntry(String dn, SortedMap<String, List<String>> attributes) {
    /**
     * Attributes that legitimately differ between a provider and its consumer, each a property of
     * one server rather than of the replicated data:
     *
     * <ul>
     *   <li>{@code contextCSN}: each server's own replication state on the suffix; a slapd
     *       provider writes it to the database only at checkpoints, a consumer after each refresh;
     *   <li>{@code entryDN}: computed from the DN, which is compared anyway;
     *   <li>{@code subschemaSubentry}: where each server publishes its own schema;
     *   <li>{@code hasSubordinates}, {@code numSubordinates}: computed from the tree, which is
     *       compared anyway (and back-mdb does not compute numSubordinates);
     *   <li>{@code memberOf}, {@code isMemberOf}: computed by Larch from groups; a slapd without the
     *       memberof overlay has no such attribute;
     *   <li>{@code pwdPolicySubentry}: computed by Larch from its password policy configuration;
     *       a slapd without the ppolicy overlay has none.
     * </ul>
     */
    static final Set<String> IGNORED = Set.of(
            "contextcsn",
            "entrydn",
            "subschemasubentry",
            "hassubordinates",
            "numsubordinates",
            "memberof",
            "ismemberof",
            "pwdpolicysubentry");

    /** Attributes of DN syntax among those the trees hold: compared as normalized DNs. */
    static final Set<String> DN_VALUED = Set.of(
            "creatorsname", "modifiersname", "member", "uniquemember", "owner", "manager", "seealso", "secretary");

    /** Compared as case-insensitive names. */
    static final Set<String> NAME_VALUED = Set.of("objectclass", "structuralobjectclass");

    static ComparedEntry of(Entry entry) {
        SortedMap<String, List<String>> attributes = new TreeMap<>();
        for (Attribute a : entry.getAttributes()) {
            String name = a.getBaseName().toLowerCase(Locale.ROOT);
            if (IGNORED.contains(name)) {
                continue;
            }
            List<String> values = attributes.computeIfAbsent(name, n -> new ArrayList<>());
            for (String v : a.getValues()) {
                values.add(canonical(name, v));
            }
        }
        attributes.values().forEach(values -> values.sort(null));
        return new ComparedEntry(normalizedDn(entry.getDN()), attributes);
    }

    static String normalizedDn(String dn) {
        try {
            return DN.normalize(dn);
        } catch (LDAPException e) {
            // Reported as a difference rather than hidden: the other side will not match it.
            return "(invalid DN) " + dn;
        }
    }

    private static String canonical(String attribute, String value) {
        if (DN_VALUED.contains(attribute)) {
            return normalizedDn(value);
        }
        if (NAME_VALUED.contains(attribute)) {
            return value.toLowerCase(Locale.ROOT);
        }
        return value;
    }

    /** SHA-256 of the canonical form: what a snapshot keeps per entry instead of the entry. */
    byte[] digest() {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
        for (Map.Entry<String, List<String>> a : attributes.entrySet()) {
            for (String v : a.getValue()) {
                // Length-prefixed so no two different forms hash the same bytes.
                update(sha, a.getKey());
                update(sha, v);
            }
        }
        return sha.digest();
    }

    private static void update(MessageDigest sha, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        sha.update((byte) (bytes.length >>> 24));
        sha.update((byte) (bytes.length >>> 16));
        sha.update((byte) (bytes.length >>> 8));
        sha.update((byte) bytes.length);
        sha.update(bytes);
    }

    /** The attributes on which {@code other} differs from this entry, with both sides' values. */
    List<String> differences(ComparedEntry other) {
        TreeMap<String, List<String>> names = new TreeMap<>(attributes);
        other.attributes.forEach(names::putIfAbsent);
        List<String> out = new ArrayList<>();
        for (String name : names.keySet()) {
            List<String> mine = attributes.getOrDefault(name, List.of());
            List<String> theirs = other.attributes.getOrDefault(name, List.of());
            if (!mine.equals(theirs)) {
                out.add(name + ": " + mine + " vs " + theirs);
            }
        }
        return out;
    }
}
