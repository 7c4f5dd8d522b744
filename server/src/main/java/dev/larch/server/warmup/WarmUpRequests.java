package dev.larch.server.warmup;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.larch.config.IndexKind;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.IndexCatalog;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.asn1.EncoderException;
import org.apache.directory.api.asn1.util.Asn1Buffer;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapEncoder;
import org.apache.directory.api.ldap.model.exception.LdapInvalidDnException;
import org.apache.directory.api.ldap.model.filter.EqualityNode;
import org.apache.directory.api.ldap.model.filter.ExprNode;
import org.apache.directory.api.ldap.model.filter.PresenceNode;
import org.apache.directory.api.ldap.model.filter.SubstringNode;
import org.apache.directory.api.ldap.model.message.AliasDerefMode;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchRequestImpl;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.UsageEnum;

/**
 * Picks the warm-up's requests from the store: read-only searches that need no bind, shaped like
 * what clients send, about entries that exist. From up to {@code sample} entries spread evenly over
 * the store (every n-th by ID), each entry gives:
 *
 * <ul>
 *   <li>a base search of its DN, {@code (objectClass=*)}, all user attributes;
 *   <li>for up to two of its user attributes with an equality index (not objectClass, whose values
 *       match whole classes of entries; not the operational stamps such as entryUUID and entryCSN,
 *       which clients seldom search by): a subtree search from the suffix for its first value, asking for
 *       three of the entry's attributes by name;
 *   <li>a one-level search under its parent for the first of those values, when the parent has at
 *       most {@value #MAX_ONE_LEVEL_CHILDREN} children (a one-level search may walk them all: under a
 *       unit of 100,000 people it cost about 0.2 s, and a few such kept the warm-up's connections
 *       waiting);
 *   <li>for the first of those attributes that also has a substring index: a subtree search from the
 *       suffix for the first three characters of the value ({@code (cn=Abc*)}).
 * </ul>
 *
 * <p>Bounds: at most {@value #REQUESTS_PER_ENTRY} requests per entry; values longer than {@value
 * #MAX_VALUE_BYTES} bytes are skipped; every search carries a size limit of {@value #SIZE_LIMIT}
 * entries and a time limit of {@value #TIME_LIMIT_SECONDS} s, so a value that matches many entries
 * costs no more than a selective one. An empty store gives no request.
 */
public final class WarmUpRequests {
    /** At most this many requests come from one entry. */
    public static final int REQUESTS_PER_ENTRY = 5;

    static final int MAX_VALUE_BYTES = 256;
    static final int SIZE_LIMIT = 10;
    static final int TIME_LIMIT_SECONDS = 5;
    /** One-level searches only under parents with at most this many children. */
    static final int MAX_ONE_LEVEL_CHILDREN = 1000;
    /** objectClass: its values match whole classes of entries, never a chosen few. */
    private static final String OBJECT_CLASS_OID = "2.5.4.0";

    private static final int PREFIX_CHARS = 3;
    private static final int EQUALITY_PER_ENTRY = 2;
    private static final int NAMED_ATTRIBUTES = 3;

    private WarmUpRequests() {}

    /**
     * The requests for up to {@code sample} entries of {@code directory}, in one read transaction.
     *
     * @param sample the most entries read, at least 1
     * @return the requests, message ID 1 each (the sender renumbers them); empty for an empty store
     */
    public static List<SearchRequest> pick(Directory directory, int sample) {
        if (sample < 1) {
            throw new IllegalArgumentException("sample must be at least 1");
        }
        IndexCatalog indexes = directory.store().indexes();
        List<SearchRequest> out = new ArrayList<>();
        try (ReadTxn txn = directory.store().read()) {
            long count = txn.entryCount();
            long stride = Math.max(1, count / sample);
            int taken = 0;
            Map<Long, Boolean> fewChildren = new HashMap<>();
            try (IdCursor ids = txn.allEntries()) {
                long n = 0;
                for (long id = ids.next(); id != ReadTxn.NOT_FOUND && taken < sample; id = ids.next(), n++) {
                    if (n % stride != 0) {
                        continue;
                    }
                    StoredEntry entry = directory.load(txn, id);
                    if (entry != null) {
                        boolean oneLevel = fewChildren.computeIfAbsent(entry.parentId(), p -> fewChildren(txn, p));
                        forEntry(entry, directory.suffix(), indexes, oneLevel, out);
                        taken++;
                    }
                }
            }
        }
        return out;
    }

    /** Whether {@code parentId} has at most {@link #MAX_ONE_LEVEL_CHILDREN} children (read up to one more). */
    static boolean fewChildren(ReadTxn txn, long parentId) {
        int n = 0;
        try (IdCursor children = txn.children(parentId)) {
            while (children.next() != ReadTxn.NOT_FOUND) {
                if (++n > MAX_ONE_LEVEL_CHILDREN) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The requests {@code entry} gives (see the class comment), added to {@code out}.
     *
     * @param oneLevel whether to add the one-level search under its parent
     */
    static void forEntry(
            StoredEntry entry, Dn suffix, IndexCatalog indexes, boolean oneLevel, List<SearchRequest> out) {
        Dn dn;
        try {
            dn = new Dn(entry.dn());
        } catch (LdapInvalidDnException e) {
            return; // a stored DN always parses; nothing to ask about otherwise
        }
        out.add(search(dn, SearchScope.OBJECT, new PresenceNode("objectClass"), List.of()));
        List<String> named = new ArrayList<>(NAMED_ATTRIBUTES);
        List<StoredAttribute> equality = new ArrayList<>(EQUALITY_PER_ENTRY);
        for (StoredAttribute a : entry.attributes()) {
            if (named.size() < NAMED_ATTRIBUTES && !a.oid().equals(OBJECT_CLASS_OID)) {
                named.add(a.userId());
            }
            if (equality.size() < EQUALITY_PER_ENTRY
                    && !a.oid().equals(OBJECT_CLASS_OID)
                    && a.type() != null
                    && a.type().getUsage() == UsageEnum.USER_APPLICATIONS
                    && a.size() > 0
                    && a.values()[0].length <= MAX_VALUE_BYTES
                    && indexes.isIndexed(a.oid(), IndexKind.EQUALITY)) {
                equality.add(a);
            }
        }
        for (StoredAttribute a : equality) {
            out.add(search(suffix, SearchScope.SUBTREE, new EqualityNode<>(a.userId(), a.values()[0]), named));
        }
        if (equality.isEmpty()) {
            return;
        }
        StoredAttribute first = equality.get(0);
        // The suffix entry's parent is outside the store.
        if (oneLevel && dn.size() > suffix.size()) {
            out.add(search(
                    dn.getParent(),
                    SearchScope.ONELEVEL,
                    new EqualityNode<>(first.userId(), first.values()[0]),
                    named));
        }
        if (indexes.isIndexed(first.oid(), IndexKind.SUBSTRING)
                && first.type() != null
                && first.type().getSyntax() != null
                && first.type().getSyntax().isHumanReadable()) {
            String value = new String(first.values()[0], StandardCharsets.UTF_8);
            if (value.codePointCount(0, value.length()) >= PREFIX_CHARS) {
                String prefix = value.substring(0, value.offsetByCodePoints(0, PREFIX_CHARS));
                out.add(search(suffix, SearchScope.SUBTREE, new SubstringNode(first.userId(), prefix, null), named));
            }
        }
    }

    private static SearchRequest search(Dn base, SearchScope scope, ExprNode filter, List<String> attributes) {
        SearchRequest search = new SearchRequestImpl();
        search.setMessageId(1);
        search.setBase(base);
        search.setScope(scope);
        search.setDerefAliases(AliasDerefMode.NEVER_DEREF_ALIASES);
        search.setSizeLimit(SIZE_LIMIT);
        search.setTimeLimit(TIME_LIMIT_SECONDS);
        search.setTypesOnly(false);
        search.setFilter(filter);
        if (!attributes.isEmpty()) {
            search.addAttributes(attributes.toArray(String[]::new));
        }
        return search;
    }

    /**
     * {@code requests} encoded as LDAPMessages by {@code codec}, the codec the server decodes with.
     *
     * @throws IllegalStateException when the codec cannot encode one (it encodes what it built)
     */
    public static List<byte[]> encode(LdapApiService codec, List<SearchRequest> requests) {
        Asn1Buffer buffer = new Asn1Buffer();
        List<byte[]> out = new ArrayList<>(requests.size());
        for (SearchRequest request : requests) {
            try {
                ByteBuffer encoded = LdapEncoder.encodeMessage(buffer, codec, request);
                byte[] bytes = new byte[encoded.remaining()];
                encoded.get(bytes);
                out.add(bytes);
            } catch (EncoderException | RuntimeException e) {
                throw new IllegalStateException("cannot encode warm-up request " + request + ": " + e, e);
            } finally {
                buffer.clear();
            }
        }
        return out;
    }
}
