package dev.larch.server.access;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.protocol.Session;
import dev.larch.server.search.Tri;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.MatchingRule;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The client of one operation as ACIs see it: its identity, address, authentication method and
 * security strength, and (worked out on demand, remembered for the operation) its own entry and its
 * group memberships.
 *
 * <p>Group membership follows {@code member} and {@code uniqueMember} through nested static groups
 * breadth first, at most {@value #MAX_GROUP_DEPTH} levels deep and loading at most
 * {@value #MAX_LOADS} entries per question; a group seen twice is not walked again, so cycles end.
 * When a bound stops the walk before an answer the result is UNDEFINED (see {@link Subject}).
 *
 * <p>Not thread-safe: one operation uses it at a time, inside the transaction it was made with.
 */
final class Requester {
    static final int MAX_GROUP_DEPTH = 8;
    static final int MAX_LOADS = 4096;
    private static final String MEMBER = "2.5.4.31";
    private static final String UNIQUE_MEMBER = "2.5.4.50";
    private static final long UNKNOWN = Long.MIN_VALUE;

    private final Session session;
    private final AciSchema schema;
    private final Directory directory;
    private final ReadTxn txn;
    /** The DN bound when the operation began, null when anonymous: a later bind changes the session. */
    private final Dn boundDn;
    /** Null until an ACI asks for it (the built-in rules never do); then {@link #boundDn}'s canonical form. */
    private String canonicalDn;

    private long selfId = UNKNOWN;
    private Map<String, Tri> groups;
    private Map<String, byte[]> normalizedSelf;

    Requester(Session session, AciSchema schema, Directory directory, ReadTxn txn) {
        this.session = session;
        this.schema = schema;
        this.directory = directory;
        this.txn = txn;
        Dn bound = session.boundDn();
        this.boundDn = bound.isEmpty() ? null : bound;
    }

    boolean isAdmin() {
        return session.isAdmin();
    }

    /** Whether the operation began anonymous (what the ACIs and the sharing of rights both go by). */
    boolean isAnonymous() {
        return boundDn == null;
    }

    String canonicalDn() {
        if (canonicalDn == null) {
            // Worked out on demand: a Requester is made for every search and bind-and-read, and most
            // never meet a userdn rule (the canonical form was 1.4% of the server's CPU under churn).
            canonicalDn = boundDn == null ? "" : AciSchema.canonical(boundDn);
        }
        return canonicalDn;
    }

    InetAddress address() {
        return session.remoteAddress() instanceof InetSocketAddress a ? a.getAddress() : null;
    }

    String authMethod() {
        return session.authMethod();
    }

    int ssf() {
        return session.ssf();
    }

    /** The bound DN as the client wrote it, as a DN-valued attribute would hold it. */
    byte[] boundDnBytes() {
        return boundDn.getName().getBytes(UTF_8);
    }

    /** Whether the entry is the requester's own. */
    boolean isEntry(EntryView entry) {
        return isEntry(entry.id());
    }

    /** Whether the entry with this ID is the requester's own. */
    boolean isEntry(long entryId) {
        long id = selfId();
        return id != ReadTxn.NOT_FOUND && id == entryId;
    }

    private long selfId() {
        if (selfId == UNKNOWN) {
            selfId = isAnonymous() ? ReadTxn.NOT_FOUND : directory.resolve(txn, boundDn);
        }
        return selfId;
    }

    /** Whether a DN-valued attribute names the requester. */
    boolean isNamedIn(StoredAttribute attribute) {
        if (attribute == null || isAnonymous()) {
            return false;
        }
        byte[] me = normalizedSelf(attribute.type());
        return me != null && attribute.containsNormalized(me);
    }

    /** Whether the requester's own entry holds {@code value} in the attribute {@code oid}. */
    boolean ownEntryHolds(String oid, String value) {
        long id = selfId();
        if (id == ReadTxn.NOT_FOUND) {
            return false;
        }
        StoredEntry own = directory.load(txn, id);
        StoredAttribute a = own == null ? null : own.attribute(oid);
        if (a == null) {
            return false;
        }
        byte[] normalized = normalize(a.type(), value);
        return normalized != null && a.containsNormalized(normalized);
    }

    /** Whether the requester is a member of one of the groups a DN-valued attribute names. */
    Tri memberOfAny(StoredAttribute attribute) {
        if (attribute == null) {
            return Tri.FALSE;
        }
        Tri result = Tri.FALSE;
        for (byte[] value : attribute.values()) {
            Dn group;
            try {
                group = schema.parse(new String(value, UTF_8));
            } catch (IllegalArgumentException e) {
                continue;
            }
            Tri member = memberOf(group);
            if (member == Tri.TRUE) {
                return Tri.TRUE;
            }
            if (member == Tri.UNDEFINED) {
                result = Tri.UNDEFINED;
            }
        }
        return result;
    }

    /** Whether the requester belongs to the static group {@code group}, directly or through nested groups. */
    Tri memberOf(Dn group) {
        if (isAnonymous()) {
            return Tri.FALSE;
        }
        if (groups == null) {
            groups = new HashMap<>();
        }
        String key = AciSchema.canonical(group);
        Tri known = groups.get(key);
        if (known == null) {
            known = walk(group);
            groups.put(key, known);
        }
        return known;
    }

    private Tri walk(Dn start) {
        Set<String> seen = new HashSet<>();
        ArrayDeque<Dn> level = new ArrayDeque<>();
        level.add(start);
        seen.add(AciSchema.canonical(start));
        int loads = 0;
        for (int depth = 0; depth < MAX_GROUP_DEPTH && !level.isEmpty(); depth++) {
            ArrayDeque<Dn> next = new ArrayDeque<>();
            for (Dn dn : level) {
                if (++loads > MAX_LOADS) {
                    return Tri.UNDEFINED;
                }
                long id = directory.resolve(txn, dn);
                StoredEntry group = id == ReadTxn.NOT_FOUND ? null : directory.load(txn, id);
                if (group == null) {
                    continue;
                }
                StoredAttribute member = group.attribute(MEMBER);
                StoredAttribute unique = group.attribute(UNIQUE_MEMBER);
                if (isNamedIn(member) || isNamedIn(unique)) {
                    return Tri.TRUE;
                }
                queueNested(member, seen, next);
                queueNested(unique, seen, next);
            }
            level = next;
        }
        return level.isEmpty() ? Tri.FALSE : Tri.UNDEFINED;
    }

    /** Member values are candidates for nested groups; those that are not groups end the walk there. */
    private void queueNested(StoredAttribute values, Set<String> seen, ArrayDeque<Dn> next) {
        if (values == null) {
            return;
        }
        for (byte[] value : values.values()) {
            try {
                Dn dn = schema.parse(new String(value, UTF_8));
                if (seen.add(AciSchema.canonical(dn))) {
                    next.add(dn);
                }
            } catch (IllegalArgumentException e) {
                // A member value that is no DN names no group.
            }
        }
    }

    /** The requester's DN as the attribute's equality rule normalizes it; null when it cannot. */
    private byte[] normalizedSelf(AttributeType type) {
        if (normalizedSelf == null) {
            normalizedSelf = new HashMap<>();
        }
        String oid = type == null ? "" : type.getOid();
        if (!normalizedSelf.containsKey(oid)) {
            normalizedSelf.put(oid, normalize(type, boundDn.getName()));
        }
        return normalizedSelf.get(oid);
    }

    private static byte[] normalize(AttributeType type, String value) {
        MatchingRule equality = type == null ? null : type.getEquality();
        if (equality == null || equality.getNormalizer() == null) {
            return value.getBytes(UTF_8);
        }
        try {
            String n = equality.getNormalizer().normalize(value);
            return n == null ? null : n.getBytes(UTF_8);
        } catch (Exception e) {
            return null;
        }
    }
}
