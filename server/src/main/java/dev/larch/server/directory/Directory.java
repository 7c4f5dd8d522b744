package dev.larch.server.directory;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongPredicate;

import dev.larch.server.entry.AttributeCatalog;
import dev.larch.server.entry.EntryCodec;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.index.IndexMaintainer;
import dev.larch.server.store.DnTree;
import dev.larch.server.store.EntryScan;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.LoggedChange;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.controls.ChangeType;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.name.Rdn;
import org.apache.directory.api.ldap.model.schema.AttributeType;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The directory tree of one naming context over the store: resolves DNs to entry IDs, loads
 * entries, and writes them together with their DN and attribute index records.
 *
 * <p>DNs are resolved one RDN at a time from the naming context's root, so no key ever holds a
 * whole DN; and an entry stores its RDN and parent ID, not its DN ({@link EntryCodec}): its DN is
 * rebuilt from the parent chain when it is loaded, the parents' DNs coming from a small cache
 * ({@link ParentChain}). So a rename moves a subtree by rewriting the renamed entry alone: its
 * DN-index record, its entry and its index keys. A DN below a parent resolved before costs one
 * look-up ({@link ParentIds}).
 *
 * <p>Thread-safe; every method works inside the caller's transaction.
 */
public final class Directory {
    /** memberOf, as Active Directory and OpenLDAP's memberof overlay number it. */
    public static final String MEMBER_OF_OID = "1.2.840.113556.1.2.102";

    private final LmdbStore store;
    private final SchemaNormalizer schemaNormalizer;
    private final IndexMaintainer indexes;
    private final EntryCodec codec;
    private final Dn suffix;
    private final byte[] suffixKey;
    private final ReferralObjects referrals;
    private final ChangeStamps stamps;
    private final ParentChain parents = new ParentChain(ParentChain.DEFAULT_MAX_BYTES);
    private final ParentIds parentIds = new ParentIds();
    private final LongAdder renamedDescendantsRead = new LongAdder();
    /** Told of every change; null while nobody watches (offline import, tools). */
    private volatile ChangeObserver observer;
    /** Keeps stored memberOf values current; {@link MemberOfUpkeep#NONE} until the server sets one. */
    private volatile MemberOfUpkeep memberOf = MemberOfUpkeep.NONE;

    /**
     * @param stamps stamps and logs each change (content synchronization)
     */
    public Directory(LmdbStore store, SchemaNormalizer schemaNormalizer, Dn suffix, ChangeStamps stamps) {
        this.store = store;
        this.stamps = stamps;
        this.schemaNormalizer = schemaNormalizer;
        this.indexes = new IndexMaintainer(store, schemaNormalizer.schema());
        List<String> oids = new ArrayList<>();
        schemaNormalizer.schema().getAttributeTypeRegistry().forEach(t -> oids.add(t.getOid()));
        this.codec = new EntryCodec(new AttributeCatalog(
                schemaNormalizer.schema(), store.attributeNumbers().ids(oids)));
        this.suffix = schemaNormalizer.dn(suffix);
        this.suffixKey = this.suffix.getNormName().getBytes(UTF_8);
        this.referrals = new ReferralObjects(schemaNormalizer);
        try (ReadTxn txn = store.read()) {
            referrals.load(txn, this);
        }
    }

    /** The referral objects (RFC 3296) of this tree, kept current by this directory's writes. */
    public ReferralObjects referrals() {
        return referrals;
    }

    public LmdbStore store() {
        return store;
    }

    public SchemaNormalizer schemaNormalizer() {
        return schemaNormalizer;
    }

    public IndexMaintainer indexes() {
        return indexes;
    }

    /**
     * Sets the one observer told of every change from now on (persistent searches), replacing any
     * earlier one. Set it before writes arrive or between two of them.
     */
    public void observe(ChangeObserver changes) {
        this.observer = changes;
    }

    /** Tells the observer the server stops and forgets it; later changes are told to nobody. */
    public void stopObserving() {
        ChangeObserver current = observer;
        observer = null;
        if (current != null) {
            current.close();
        }
    }

    /** Who keeps the stored memberOf values current ({@link MemberOfUpkeep#NONE} when nobody does). */
    public MemberOfUpkeep memberOfUpkeep() {
        return memberOf;
    }

    /**
     * Sets who keeps the stored memberOf values current from now on (the server, before writes
     * arrive). Without one the values are left as they are; an offline import recomputes them all.
     */
    public void maintainMemberOf(MemberOfUpkeep upkeep) {
        this.memberOf = upkeep;
    }

    private void changed(WriteTxn txn, ChangeType type, StoredEntry entry, String previousDn, byte[] csn) {
        changed(txn, new DirectoryChange(type, entry, previousDn, null, csn));
    }

    private void changed(WriteTxn txn, DirectoryChange change) {
        ChangeObserver current = observer;
        if (current != null) {
            current.changed(txn, change);
        }
    }

    /**
     * The administrator, {@code cn=admin,<suffix>}: the creator and modifier an entry is stamped with
     * when the server itself writes it (the suffix it creates, an import), as slapadd stamps its rootdn.
     */
    public Dn administrator() {
        return schemaNormalizer.dn("cn=admin," + suffix.getName());
    }

    /** The naming context this directory holds. */
    public Dn suffix() {
        return suffix;
    }

    /** Whether {@code dn} is the suffix or below it. */
    public boolean holds(Dn dn) {
        int below = dn.size() - suffix.size();
        if (below < 0) {
            return false;
        }
        if (!dn.isSchemaAware()) {
            return dn.equals(suffix) || dn.isDescendantOf(suffix);
        }
        // A schema-aware DN's normalized form is its RDNs' joined by commas: the suffix's must be
        // what follows its first `below` RDNs. (The API's check compares each RDN's values, 0.7% of
        // the server's CPU under authrate.)
        int from = 0;
        for (int i = 0; i < below; i++) {
            from += dn.getRdn(i).getNormName().length() + 1;
        }
        String normalized = dn.getNormName();
        String suffixNormalized = suffix.getNormName();
        return normalized.length() - from == suffixNormalized.length()
                && (from == 0 || normalized.charAt(from - 1) == ',')
                && normalized.startsWith(suffixNormalized, from);
    }

    /** Where an entry sits in the tree: its ID and its parent's ({@link DnTree#NO_PARENT} for the suffix). */
    public record Location(long id, long parentId) {}

    /** The ID of the entry named {@code dn} (schema-aware), or {@link ReadTxn#NOT_FOUND}. */
    public long resolve(ReadTxn txn, Dn dn) {
        Location at = locate(txn, dn);
        return at == null ? ReadTxn.NOT_FOUND : at.id();
    }

    /**
     * The entry named {@code dn} (schema-aware) and its parent, found in one walk; null when there is
     * none. A search needs both for its base, and a second lookup of the parent costs a descent of
     * the entries' B-tree (2.5% of the server's CPU under the messaging mix).
     */
    public Location locate(ReadTxn txn, Dn dn) {
        if (!holds(dn)) {
            return null;
        }
        long generation = txn.renameGeneration();
        int parentFrom = dn.size() > suffix.size() && generation >= 0 ? parentFrom(dn) : -1;
        if (parentFrom > 0) {
            long parentId = parentIds.get(dn.getNormName(), parentFrom, generation);
            if (parentId != ReadTxn.NOT_FOUND) {
                long id = txn.childId(parentId, rdnKey(dn.getRdn(0)));
                if (id != ReadTxn.NOT_FOUND) {
                    return new Location(id, parentId);
                }
                // The parent may be gone from this snapshot or not in it yet (see ParentIds): only
                // the walk from the root can tell that the entry is absent.
            }
        }
        long parentId = DnTree.NO_PARENT;
        long id = txn.childId(DnTree.NO_PARENT, suffixKey);
        for (int i = dn.size() - suffix.size() - 1; i >= 0 && id != ReadTxn.NOT_FOUND; i--) {
            parentId = id;
            id = txn.childId(id, rdnKey(dn.getRdn(i)));
        }
        if (id == ReadTxn.NOT_FOUND) {
            return null;
        }
        if (parentFrom > 0) {
            parentIds.put(dn.getNormName(), parentFrom, parentId, generation);
        }
        return new Location(id, parentId);
    }

    /**
     * Where the parent's DN starts in {@code dn}'s normalized DN (its RDNs' normalized forms joined by
     * commas), or -1 when that string does not have this shape.
     */
    private static int parentFrom(Dn dn) {
        int from = dn.getRdn(0).getNormName().length() + 1;
        String normalized = dn.getNormName();
        return from < normalized.length() && normalized.charAt(from - 1) == ',' ? from : -1;
    }

    /**
     * The first entry on the path from the naming context's root down to {@code dn} (both included)
     * whose ID passes {@code test}, or {@link ReadTxn#NOT_FOUND}; the walk stops where the path leaves
     * the tree, so an ancestor of an absent {@code dn} is found too.
     */
    public long firstOnPath(ReadTxn txn, Dn dn, LongPredicate test) {
        if (!holds(dn)) {
            return ReadTxn.NOT_FOUND;
        }
        long id = txn.childId(DnTree.NO_PARENT, suffixKey);
        for (int i = dn.size() - suffix.size() - 1; id != ReadTxn.NOT_FOUND; i--) {
            if (test.test(id)) {
                return id;
            }
            if (i < 0) {
                break;
            }
            id = txn.childId(id, rdnKey(dn.getRdn(i)));
        }
        return ReadTxn.NOT_FOUND;
    }

    /** The ID of the entry named {@code dn}; noSuchObject with the matched DN when absent. */
    public long require(ReadTxn txn, Dn dn) {
        long id = resolve(txn, dn);
        if (id == ReadTxn.NOT_FOUND) {
            throw noSuchObject(txn, dn);
        }
        return id;
    }

    /** noSuchObject naming the deepest existing ancestor of {@code dn} as the matched DN. */
    public ResultCodeException noSuchObject(ReadTxn txn, Dn dn) {
        Dn matched = Dn.EMPTY_DN;
        if (holds(dn)) {
            long id = txn.childId(DnTree.NO_PARENT, suffixKey);
            if (id != ReadTxn.NOT_FOUND) {
                matched = suffix;
                for (int i = dn.size() - suffix.size() - 1; i > 0; i--) {
                    id = txn.childId(id, rdnKey(dn.getRdn(i)));
                    if (id == ReadTxn.NOT_FOUND) {
                        break;
                    }
                    matched = ancestorAt(dn, i);
                }
            }
        }
        return new ResultCodeException(ResultCodeEnum.NO_SUCH_OBJECT, "no such entry: " + dn.getName(), matched);
    }

    /** The ancestor of {@code dn} whose leaf RDN is {@code dn.getRdn(index)}. */
    private static Dn ancestorAt(Dn dn, int index) {
        Dn ancestor = dn;
        for (int i = 0; i < index; i++) {
            ancestor = ancestor.getParent();
        }
        return ancestor;
    }

    /**
     * The entry with this ID, its DN rebuilt from the parent chain; null when it has gone.
     *
     * @throws IllegalStateException when the entry or its parent chain is damaged
     */
    public StoredEntry load(ReadTxn txn, long id) {
        return load(txn, id, false);
    }

    /**
     * {@link #load} for an entry used up before {@code txn} ends, such as a search's candidate: in a
     * read transaction its attributes are read in place, from the transaction's memory, without a copy
     * of the entry (using the entry after the transaction has ended throws). In a write transaction it
     * is copied as by {@link #load}.
     */
    public StoredEntry loadInPlace(ReadTxn txn, long id) {
        return load(txn, id, txn.readsInPlace());
    }

    private StoredEntry load(ReadTxn txn, long id, boolean inPlace) {
        ByteBuffer bytes = txn.entry(id);
        if (bytes == null) {
            return null;
        }
        long parentId = EntryCodec.parentId(bytes);
        String parentDn = null;
        if (parentId != DnTree.NO_PARENT) {
            parentDn = parents.cached(txn, parentId);
            if (parentDn == null) {
                parentDn = parentDn(txn, id, parentId);
                // The walk read other entries, and a read transaction hands every read back in
                // the same buffer object: read this entry again.
                bytes = txn.entry(id);
            }
        }
        return inPlace ? codec.decodeInPlace(id, bytes, parentDn, txn.stillOpen()) : codec.decode(id, bytes, parentDn);
    }

    /**
     * The entry {@code scan} stands on, whose ID is {@code id}, its DN rebuilt from the parent chain:
     * as {@link #load(ReadTxn, long)} without looking the entry up again.
     *
     * @throws IllegalStateException when the entry or its parent chain is damaged
     */
    public StoredEntry load(ReadTxn txn, long id, EntryScan scan) {
        // The scan's cursor keeps its own buffer: the parent chain's reads leave it in place.
        ByteBuffer bytes = scan.entry();
        long parentId = EntryCodec.parentId(bytes);
        if (parentId == DnTree.NO_PARENT) {
            return codec.decode(id, bytes, null);
        }
        String parentDn = parents.cached(txn, parentId);
        return codec.decode(id, bytes, parentDn != null ? parentDn : parentDn(txn, id, parentId));
    }

    /** The DN of entry {@code id}'s parent {@code parentId}, read from the parent chain. */
    private String parentDn(ReadTxn txn, long id, long parentId) {
        String parentDn = parents.dn(txn, parentId);
        if (parentDn == null) {
            throw new IllegalStateException("entry " + id + " names parent " + parentId + ", which does not exist");
        }
        return parentDn;
    }

    /**
     * The DN (user form) of the entry with this ID, read from the parent chain without decoding its
     * attributes; null when it has gone. Meant for entries with children, which are cached.
     */
    public String dnOf(ReadTxn txn, long id) {
        return parents.dn(txn, id);
    }

    /** The parent's ID, or {@link DnTree#NO_PARENT} for the naming context's root (or a missing entry). */
    public long parentOf(ReadTxn txn, long id) {
        ByteBuffer bytes = txn.entry(id);
        return bytes == null ? DnTree.NO_PARENT : EntryCodec.parentId(bytes);
    }

    /**
     * Whether entry {@code id} is {@code ancestorId} or lies below it: one read of the entry, then
     * its ancestors from the cached parent chain.
     */
    public boolean isWithin(ReadTxn txn, long id, long ancestorId) {
        return parents.isWithin(txn, id, ancestorId);
    }

    /** The DN the store gives an entry named {@code dn} under {@code parentId}: its RDN under the parent's DN. */
    private String storedDn(ReadTxn txn, long parentId, Dn dn) {
        String name = EntryCodec.storedName(parentId, dn);
        return parentId == DnTree.NO_PARENT ? name : EntryCodec.composeDn(name, parents.dn(txn, parentId));
    }

    /**
     * Stores a new entry (schema-checked by the caller) under {@code parentId} (NO_PARENT for the
     * suffix itself) with its DN and index records.
     */
    public StoredEntry insert(WriteTxn txn, long parentId, Entry entry) {
        return insert(txn, parentId, entry, stamps.stampUnlessPresent(entry), false);
    }

    /**
     * {@link #insert} of an entry another server added, with the {@code entryCSN} it carries ({@code
     * csn}): the change is logged with that CSN and the contextCSN is left as it is (a replication
     * consumer raises it with the provider's cookie).
     */
    public StoredEntry insertReplicated(WriteTxn txn, long parentId, Entry entry, byte[] csn) {
        return insert(txn, parentId, entry, csn, true);
    }

    private StoredEntry insert(WriteTxn txn, long parentId, Entry entry, byte[] csn, boolean replicated) {
        long id = txn.allocateId();
        txn.putEntry(id, codec.encode(parentId, entry));
        txn.putChild(parentId, keyUnderParent(entry.getDn(), parentId), id);
        StoredEntry stored = EntryCodec.toStored(id, parentId, storedDn(txn, parentId, entry.getDn()), entry);
        indexes.add(txn, stored);
        referrals.written(txn, null, stored);
        memberOf.written(txn, null, stored);
        log(txn, LoggedChange.Kind.ADD, stored, csn, replicated);
        changed(txn, ChangeType.ADD, stored, null, csn);
        return stored;
    }

    /**
     * Replaces an entry's content (same ID, DN and parent), updating only changed index keys; the
     * entry gets a new CSN.
     */
    public StoredEntry replace(WriteTxn txn, StoredEntry before, Entry after) {
        return replace(txn, before, after, stamps.stampNew(after), false);
    }

    /**
     * {@link #replace} with the content another server wrote, its {@code entryCSN} ({@code csn})
     * kept: logged with that CSN, the contextCSN left as it is (see {@link #insertReplicated}).
     */
    public StoredEntry replaceReplicated(WriteTxn txn, StoredEntry before, Entry after, byte[] csn) {
        return replace(txn, before, after, csn, true);
    }

    private StoredEntry replace(WriteTxn txn, StoredEntry before, Entry after, byte[] csn, boolean replicated) {
        txn.putEntry(before.id(), codec.encode(before.parentId(), after));
        StoredEntry stored = EntryCodec.toStored(before.id(), before.parentId(), before.dn(), after);
        indexes.update(txn, before, stored);
        referrals.written(txn, before, stored);
        memberOf.written(txn, before, stored);
        log(txn, LoggedChange.Kind.MODIFY, stored, csn, replicated);
        changed(txn, new DirectoryChange(ChangeType.MODIFY, stored, null, before, csn));
        return stored;
    }

    /**
     * {@link #replace} that tells nobody (no persistent search) and is neither stamped nor logged, so
     * it does not replicate: for a change no client made and none could tell from the entry's
     * meaning, as a password re-hashed in another scheme on a bind (a consumer keeps the old hash,
     * which verifies the same password).
     */
    public StoredEntry replaceUntold(WriteTxn txn, StoredEntry before, Entry after) {
        txn.putEntry(before.id(), codec.encode(before.parentId(), after));
        StoredEntry stored = EntryCodec.toStored(before.id(), before.parentId(), before.dn(), after);
        indexes.update(txn, before, stored);
        referrals.written(txn, before, stored);
        memberOf.written(txn, before, stored);
        return stored;
    }

    /**
     * Replaces the {@code memberOf} values of an entry (same ID, DN and parent) with {@code
     * groupDns}, none when empty, and its memberOf index keys; nobody is told, as the values derive
     * from changes already told.
     */
    public StoredEntry writeMemberOf(WriteTxn txn, StoredEntry before, List<String> groupDns) {
        // In stored form: turning the entry into an API entry and back normalized every value of it,
        // for one changed attribute (the import's memberOf pass does this for every member).
        List<StoredAttribute> attributes = new ArrayList<>(before.attributes().size() + 1);
        for (StoredAttribute a : before.attributes()) {
            if (!a.oid().equals(MEMBER_OF_OID)) {
                attributes.add(a);
            }
        }
        if (!groupDns.isEmpty()) {
            AttributeType type = schemaNormalizer.schema().getAttributeType(MEMBER_OF_OID);
            attributes.add(schemaNormalizer.storedDnAttribute(type, groupDns));
        }
        String name = EntryCodec.storedName(before.parentId(), schemaNormalizer.dn(before.dn()));
        txn.putEntry(before.id(), codec.encode(before.parentId(), name, attributes));
        StoredEntry stored = new StoredEntry(before.id(), before.parentId(), before.dn(), List.copyOf(attributes));
        indexes.update(txn, before, stored);
        return stored;
    }

    /**
     * Rewrites an entry under a new DN and parent (modify DN), moving its DN-index record, and
     * counts the rename in the store ({@link WriteTxn#countRename}) so that no cached DN outlives it.
     * Entries below it are not touched: their DNs follow from the parent chain. The observer and the
     * memberOf upkeep are told of this entry only; {@link #subtreeRenamed} tells them of the others.
     */
    public StoredEntry move(WriteTxn txn, StoredEntry before, long newParentId, Entry after) {
        return move(txn, before, newParentId, after, stamps.stampNew(after), false);
    }

    /**
     * {@link #move} of an entry another server renamed, its {@code entryCSN} ({@code csn}) kept:
     * logged with that CSN, the contextCSN left as it is (see {@link #insertReplicated}).
     */
    public StoredEntry moveReplicated(WriteTxn txn, StoredEntry before, long newParentId, Entry after, byte[] csn) {
        return move(txn, before, newParentId, after, csn, true);
    }

    private StoredEntry move(
            WriteTxn txn, StoredEntry before, long newParentId, Entry after, byte[] csn, boolean replicated) {
        Dn oldDn = schemaNormalizer.dn(before.dn());
        txn.countRename();
        txn.deleteChild(before.parentId(), keyUnderParent(oldDn, before.parentId()));
        txn.putChild(newParentId, keyUnderParent(after.getDn(), newParentId), before.id());
        txn.putEntry(before.id(), codec.encode(newParentId, after));
        StoredEntry stored =
                EntryCodec.toStored(before.id(), newParentId, storedDn(txn, newParentId, after.getDn()), after);
        indexes.update(txn, before, stored);
        referrals.written(txn, before, stored);
        memberOf.written(txn, before, stored);
        log(txn, LoggedChange.Kind.RENAME, stored, csn, replicated);
        changed(txn, ChangeType.MODDN, stored, before.dn(), csn);
        return stored;
    }

    /**
     * After {@link #move} of {@code rootId}, tells whoever depends on the DNs of the entries below it
     * that they changed with it, reading those entries only when someone needs each of them: the
     * memberOf upkeep finds the few it affects through the indexes ({@link
     * MemberOfUpkeep#subtreeRenamed}); the observer is told of each descendant only while it wants
     * such changes (a persistent search of modDN changes waits; a sync consumer's does not want them). Nothing is written here: the descendants' stored RDNs and parent
     * IDs are unchanged.
     *
     * @param oldRootDn the renamed entry's DN before the move (user form)
     * @param newRootDn its DN after it, as {@link #move} returned it
     * @return how many descendants were read; 0 when nobody needed them one by one
     */
    public long subtreeRenamed(WriteTxn txn, long rootId, String oldRootDn, String newRootDn) {
        MemberOfUpkeep upkeep = memberOf;
        // Reference comparison on purpose: NONE is the one instance that keeps nothing.
        @SuppressWarnings("ReferenceEquality")
        boolean maintained = upkeep != MemberOfUpkeep.NONE;
        boolean upkeepPerEntry = maintained
                && !upkeep.subtreeRenamed(txn, rootId, schemaNormalizer.dn(oldRootDn), schemaNormalizer.dn(newRootDn));
        ChangeObserver watching = observer;
        // Told as each descendant will be: a modDN without a stamp of its own.
        boolean tell =
                watching != null && watching.wants(new DirectoryChange(ChangeType.MODDN, null, null, null, null));
        if (!upkeepPerEntry && !tell) {
            return 0;
        }
        long visited = 0;
        Deque<Moved> pending = new ArrayDeque<>();
        pending.push(new Moved(rootId, oldRootDn, newRootDn));
        List<Long> children = new ArrayList<>();
        while (!pending.isEmpty()) {
            Moved parent = pending.pop();
            String parentOldDn = parent.oldDn();
            String parentNewDn = parent.newDn();
            children.clear();
            try (IdCursor c = txn.children(parent.id())) {
                for (long child = c.next(); child != ReadTxn.NOT_FOUND; child = c.next()) {
                    children.add(child);
                }
            }
            for (long child : children) {
                ByteBuffer bytes = txn.entry(child);
                if (bytes == null) {
                    throw new IllegalStateException("the DN tree names entry " + child + ", which does not exist");
                }
                String name = EntryCodec.name(bytes);
                String oldDn = EntryCodec.composeDn(name, parentOldDn);
                String newDn = EntryCodec.composeDn(name, parentNewDn);
                StoredEntry after = codec.decode(child, bytes, parentNewDn);
                StoredEntry before = new StoredEntry(child, after.parentId(), oldDn, after.attributes());
                if (upkeepPerEntry) {
                    upkeep.written(txn, before, after);
                }
                if (tell) {
                    changed(txn, ChangeType.MODDN, after, oldDn, null);
                }
                visited++;
                pending.push(new Moved(child, oldDn, newDn));
            }
        }
        renamedDescendantsRead.add(visited);
        return visited;
    }

    /**
     * Descendants of renamed entries read one by one since this directory was opened ({@link
     * #subtreeRenamed}): for tests and monitoring, which show a rename that reads its whole subtree.
     */
    public long renamedDescendantsRead() {
        return renamedDescendantsRead.sum();
    }

    /** An entry a subtree rename moved, whose children are still to be visited. */
    private record Moved(long id, String oldDn, String newDn) {}

    /** Removes a leaf entry with its DN and index records; the delete is stamped and logged. */
    public void delete(WriteTxn txn, StoredEntry entry) {
        delete(txn, entry, stamps.next(), false);
    }

    /**
     * {@link #delete} of an entry another server deleted, logged with {@code csn}, the contextCSN
     * left as it is (see {@link #insertReplicated}).
     */
    public void deleteReplicated(WriteTxn txn, StoredEntry entry, byte[] csn) {
        delete(txn, entry, csn, true);
    }

    private void delete(WriteTxn txn, StoredEntry entry, byte[] csn, boolean replicated) {
        log(txn, LoggedChange.Kind.DELETE, entry, csn, replicated);
        // Told first: the observer judges the entry as it was, its parents still in place.
        changed(txn, ChangeType.DELETE, entry, null, csn);
        memberOf.written(txn, entry, null);
        Dn dn = schemaNormalizer.dn(entry.dn());
        indexes.remove(txn, entry);
        txn.deleteChild(entry.parentId(), keyUnderParent(dn, entry.parentId()));
        txn.deleteEntry(entry.id());
        referrals.written(txn, entry, null);
    }

    private void log(WriteTxn txn, LoggedChange.Kind kind, StoredEntry entry, byte[] csn, boolean replicated) {
        if (replicated) {
            stamps.logReplicated(txn, kind, entry, csn);
        } else {
            stamps.log(txn, kind, entry, csn);
        }
    }

    /** Stamps and logs this directory's changes: its CSN clock, for a replication consumer. */
    public ChangeStamps stamps() {
        return stamps;
    }

    private byte[] keyUnderParent(Dn dn, long parentId) {
        return parentId == DnTree.NO_PARENT ? suffixKey : rdnKey(dn.getRdn());
    }

    /** The key of a normalized RDN under its parent in the DN index, the order children are walked in. */
    public static byte[] rdnKey(Rdn rdn) {
        return rdn.getNormName().getBytes(UTF_8);
    }
}
