package dev.larch.server.access;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Session;
import dev.larch.server.search.EntryScreen;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.Tri;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Modification;
import org.apache.directory.api.ldap.model.entry.ModificationOperation;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.filter.ExprNode;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The access decisions the operation handlers ask for, over the ACIs in force: the global rules of
 * {@code access.file} and the {@code aci} values in the directory (see {@link AciParser} for the
 * language and {@link Decider} for how an ACI reaches an entry).
 *
 * <p>The administrator bypasses every ACI. Anyone else needs an allow that no deny overrides. A
 * refused write, compare or rename of an entry the client may not even read is answered noSuchObject,
 * so that refusals do not reveal what exists; otherwise insufficientAccessRights.
 *
 * <p>Thread-safe. The rules live in an immutable {@link AciSnapshot}; a committed write that changes an
 * entry's {@code aci} values replaces the snapshot (copying the map of holders, so an ACI change costs
 * time in the number of holders, never in the size of the directory).
 */
public final class AccessControl {
    /** The {@code aci} attribute (389-DS, OpenDJ). */
    public static final String ACI_OID = "2.16.840.1.113730.3.1.55";

    private static final Logger LOG = LoggerFactory.getLogger(AccessControl.class);

    private final AciSchema schema;
    private final AciParser parser;
    private final Directory directory;
    private final Object refreshing = new Object();
    private volatile AciSnapshot snapshot;
    /** Counts the snapshots replaced; written under {@link #refreshing}. */
    private volatile long rulesGeneration;

    private AccessControl(AciSchema schema, Directory directory, AciSnapshot snapshot) {
        this.schema = schema;
        this.parser = new AciParser(schema);
        this.directory = directory;
        this.snapshot = snapshot;
    }

    /**
     * Compiles the global rules and reads every {@code aci} value of the directory (one pass over the
     * entries). A stored value that no longer parses (written by an older version, or imported) is left
     * out with a warning naming the entry: it grants nothing.
     *
     * @param global the global rules, already parsed (see {@link AccessFile})
     */
    public static AccessControl open(Directory directory, AciSchema schema, List<Aci> global) {
        AciParser parser = new AciParser(schema);
        Map<Long, List<Aci>> held = new HashMap<>();
        try (ReadTxn txn = directory.store().read();
                IdCursor ids = txn.allEntries()) {
            for (long id = ids.next(); id != ReadTxn.NOT_FOUND; id = ids.next()) {
                StoredEntry entry = directory.load(txn, id);
                List<Aci> acis = entry == null ? List.of() : compile(parser, entry);
                if (!acis.isEmpty()) {
                    held.put(id, acis);
                }
            }
        }
        AciSnapshot snapshot = new AciSnapshot(global, held);
        // Debug, not info: a failed start must print nothing but its one-line error.
        LOG.debug(
                "access control: {} global rules, {} ACIs on {} entries",
                global.size(),
                snapshot.size() - global.size(),
                held.size());
        return new AccessControl(schema, directory, snapshot);
    }

    /**
     * Changes whenever the rules in force change (an {@code aci} value written, {@code access.file}
     * reloaded): a decision remembered across operations (a persistent search's group walk) is
     * valid only while this stays the same.
     */
    public long rulesGeneration() {
        return rulesGeneration;
    }

    /** The parser for {@code aci} values, to validate them in add and modify. */
    public AciParser parser() {
        return parser;
    }

    // ---- reads ----------------------------------------------------------------------------------

    /**
     * How one search sees entries: which it may return and which filter components it may test.
     *
     * @param txn the search's transaction; the screen is valid as long as it is
     * @param filter the request's filter, to compile variants where some attributes may not be searched
     * @return {@link EntryScreen#ALL} for the administrator
     */
    public EntryScreen forSearch(Session session, ReadTxn txn, ExprNode filter, FilterCompiler compiler) {
        if (session.isAdmin()) {
            return EntryScreen.ALL;
        }
        return new SearchAccess(decider(session, txn), filter, compiler, schema, directory);
    }

    /**
     * How a search of the {@code cn=Monitor} subtree sees its entries: the administrator sees them all;
     * anyone else only what the global rules of {@code access.file} grant with a {@code target} that
     * names a DN. An untargeted rule (the built-in "anyone may read all but passwords") does not reach
     * the monitor, so it is the administrator's alone until a rule opens it explicitly, for example
     * {@code (target = "ldap:///cn=Monitor")(targetattr = "*") ... allow (read, search) userdn = ...}.
     * ACIs held by entries never reach it: the monitor has no place in the stored tree.
     *
     * @param txn a read transaction for the requester's group memberships; the screen is valid as long as it is
     */
    public EntryScreen forMonitor(Session session, ReadTxn txn, ExprNode filter, FilterCompiler compiler) {
        if (session.isAdmin()) {
            return EntryScreen.ALL;
        }
        List<Aci> targeted = new ArrayList<>();
        for (Aci aci : snapshot.global()) {
            if (aci.target().dn() != null) {
                targeted.add(aci);
            }
        }
        Decider decider = new Decider(
                new AciSnapshot(targeted, Map.of()),
                new Requester(session, schema, directory, txn),
                schema,
                directory,
                txn);
        return new SearchAccess(decider, filter, compiler, schema, directory);
    }

    /**
     * Whether {@code session} may see that {@code entry} exists: {@code read} on the entry itself
     * (the administrator always). An entry it may not read answers every operation as an absent one.
     */
    public boolean mayRead(Session session, ReadTxn txn, StoredEntry entry) {
        return session.isAdmin() || (decider(session, txn).decide(entry).onEntry() & Rights.READ) != 0;
    }

    /**
     * The entry named {@code dn} as {@code session} may see it: its ID, or noSuchObject exactly as
     * for an absent entry when it is missing or hidden from the client.
     *
     * @throws ResultCodeException noSuchObject naming only an ancestor the client may read ({@link #noSuchObject})
     */
    public long requireVisible(Session session, ReadTxn txn, Dn dn) {
        return requireVisible(session, txn, dn, null).id();
    }

    /**
     * {@link #requireVisible(Session, ReadTxn, Dn)} judged by the screen of the search whose base
     * {@code dn} is ({@link #forSearch}, same session and transaction): the search's decider works out
     * the base's rights, rather than one made for this question alone, and reads the base only when a
     * rule must look at it (the base of most searches is the suffix, and reading it was 3.5% of the
     * server's CPU under the messaging mix).
     *
     * @param screen the search's screen; null to judge with a decider made for this question
     * @return where the entry sits: its ID and its parent's
     */
    public Directory.Location requireVisible(Session session, ReadTxn txn, Dn dn, EntryScreen screen) {
        Directory.Location at = directory.locate(txn, dn);
        if (at == null) {
            throw noSuchObject(session, txn, dn);
        }
        if (!session.isAdmin()) {
            Tri known = screen == null ? Tri.UNDEFINED : screen.mayReadEntryUnread(at.id(), at.parentId());
            boolean visible;
            if (known == Tri.UNDEFINED) {
                StoredEntry entry = directory.loadInPlace(txn, at.id()); // judged here, then dropped
                visible = entry != null && (screen == null ? mayRead(session, txn, entry) : screen.mayReadEntry(entry));
            } else {
                visible = known == Tri.TRUE;
            }
            if (!visible) {
                throw noSuchObject(session, txn, dn);
            }
        }
        return at;
    }

    /**
     * noSuchObject for {@code dn} as {@code session} may learn it: the matched DN is the nearest
     * existing ancestor the client may read, or empty; a hidden ancestor is never named, so the
     * answer for an entry below a hidden one is the answer for an entry below a missing one.
     */
    public ResultCodeException noSuchObject(Session session, ReadTxn txn, Dn dn) {
        ResultCodeException missing = directory.noSuchObject(txn, dn);
        return session.isAdmin() ? missing : withVisibleMatch(session, txn, missing);
    }

    /** noSuchObject for an existing {@code entry} hidden from {@code session}, as for an absent one. */
    public ResultCodeException noSuchObject(Session session, ReadTxn txn, StoredEntry entry) {
        return noSuchObject(session, txn, directory.schemaNormalizer().dn(entry.dn()));
    }

    /**
     * {@code failure} with its matched DN (of noSuchObject) moved up to the nearest ancestor the client may
     * read; any other failure unchanged. For handlers whose failures come from {@link
     * Directory#require}, which names the deepest existing ancestor whoever asks.
     */
    public RuntimeException hidingAncestors(Session session, ReadTxn txn, RuntimeException failure) {
        if (session.isAdmin()
                || !(failure instanceof ResultCodeException e)
                || e.code() != ResultCodeEnum.NO_SUCH_OBJECT
                || e.matchedDn().isEmpty()) {
            return failure;
        }
        return withVisibleMatch(session, txn, e);
    }

    private ResultCodeException withVisibleMatch(Session session, ReadTxn txn, ResultCodeException missing) {
        Dn matched = missing.matchedDn();
        Decider decider = decider(session, txn);
        while (!matched.isEmpty() && directory.holds(matched)) {
            long id = directory.resolve(txn, matched);
            StoredEntry entry = id == ReadTxn.NOT_FOUND ? null : directory.load(txn, id);
            if (entry != null && (decider.decide(entry).onEntry() & Rights.READ) != 0) {
                break;
            }
            matched = matched.getParent();
        }
        if (!directory.holds(matched)) {
            matched = Dn.EMPTY_DN;
        }
        // The message names the DN the client asked for, nothing the store holds.
        return new ResultCodeException(ResultCodeEnum.NO_SUCH_OBJECT, missing.getMessage(), matched);
    }

    /**
     * {@code entry} as {@code session} may judge it in a filter that stands for a precondition (the
     * assertion control, RFC 4528): without the attributes it may not read, and with only the {@code
     * memberOf} values naming groups it may read, so a hidden value behaves exactly as an absent one.
     * The administrator's view is the entry itself.
     */
    public StoredEntry readableView(Session session, ReadTxn txn, StoredEntry entry) {
        if (session.isAdmin()) {
            return entry;
        }
        Decider decider = decider(session, txn);
        EntryRights rights = decider.decide(entry);
        List<StoredAttribute> kept = new ArrayList<>(entry.attributes().size());
        for (StoredAttribute a : entry.attributes()) {
            if ((rights.on(a.oid()) & Rights.READ) != 0) {
                kept.add(a);
            }
        }
        StoredEntry readable = new StoredEntry(entry.id(), entry.parentId(), entry.dn(), List.copyOf(kept));
        return new GroupVisibility(decider, directory).screen(readable);
    }

    /** Compare needs {@code compare} on the attribute. */
    public void requireCompare(Session session, ReadTxn txn, StoredEntry entry, String oid, String attributeName) {
        if (session.isAdmin()) {
            return;
        }
        EntryRights rights = decider(session, txn).decide(entry);
        if ((rights.on(oid) & Rights.COMPARE) == 0) {
            throw refused(session, rights, txn, entry, "no compare right on " + attributeName);
        }
    }

    // ---- writes ---------------------------------------------------------------------------------

    /**
     * Add needs {@code add} on the new entry (ACIs of its ancestors and the global rules, judged on the
     * entry as it will be stored), and {@code write} on {@code aci} when it carries ACIs. Called inside
     * the write transaction after the insert, so a refusal aborts it.
     */
    public void requireAdd(Session session, WriteTxn txn, StoredEntry added) {
        if (!session.isAdmin()) {
            Decider decider = decider(session, txn);
            EntryRights rights = decider.decide(added);
            if ((rights.onEntry() & Rights.ADD) == 0) {
                StoredEntry parent = directory.load(txn, added.parentId());
                EntryRights onParent =
                        parent == null ? rights : decider(session, txn).decide(parent);
                throw refused(
                        session, onParent, txn, parent == null ? added : parent, "no add right for " + added.dn());
            }
            if (added.attribute(ACI_OID) != null && (rights.on(ACI_OID) & Rights.WRITE) == 0) {
                throw refused(session, rights, txn, added, "no write right on aci of " + added.dn());
            }
        }
    }

    /**
     * Whether {@code session} may act as the identity whose entry is {@code target} (proxied
     * authorization, RFC 4370): the administrator always; anyone else with {@code proxy} on it.
     * Anonymous sessions never.
     */
    public boolean mayProxy(Session session, ReadTxn txn, StoredEntry target) {
        if (session.isAdmin()) {
            return true;
        }
        if (session.isAnonymous()) {
            return false;
        }
        return (decider(session, txn).decide(target).onEntry() & Rights.PROXY) != 0;
    }

    /** Delete needs {@code delete} on the entry. */
    public void requireDelete(Session session, WriteTxn txn, StoredEntry entry) {
        if (!session.isAdmin()) {
            EntryRights rights = decider(session, txn).decide(entry);
            if ((rights.onEntry() & Rights.DELETE) == 0) {
                throw refused(session, rights, txn, entry, "no delete right on " + entry.dn());
            }
        }
    }

    /**
     * Modify needs, per changed attribute, {@code write}, or {@code selfwrite} when the change only adds
     * or removes the requester's own DN (joining or leaving a group). Judged on the entry before the change.
     */
    public void requireModify(Session session, ReadTxn txn, StoredEntry before, Iterable<Modification> mods) {
        if (session.isAdmin()) {
            return;
        }
        Decider decider = decider(session, txn);
        EntryRights rights = decider.decide(before);
        for (Modification mod : mods) {
            AttributeType type =
                    directory.schemaNormalizer().type(mod.getAttribute().getUpId());
            int held = rights.on(type.getOid());
            boolean may = (held & Rights.WRITE) != 0
                    || ((held & Rights.SELFWRITE) != 0 && onlyOwnDn(decider.requester(), mod, type));
            if (!may) {
                throw refused(
                        session, rights, txn, before, "no write right on " + type.getName() + " of " + before.dn());
            }
        }
    }

    /**
     * Modify DN needs {@code delete} where the entry was (checked first with {@link #requireDelete}) and
     * {@code add} where it goes, judged on the renamed entry, as in 389-DS.
     */
    public void requireRenameTo(Session session, WriteTxn txn, StoredEntry before, StoredEntry after) {
        if (!session.isAdmin()) {
            EntryRights old = decider(session, txn).decide(before);
            EntryRights moved = decider(session, txn).decide(after);
            if ((moved.onEntry() & Rights.ADD) == 0) {
                throw refused(session, old, txn, before, "no add right for " + after.dn());
            }
        }
    }

    /**
     * Tells access control that a write replaced {@code before} with {@code after} (either null for an
     * add or a delete); when either holds ACIs, the snapshot is updated once the transaction commits,
     * before the client is answered.
     */
    public void written(WriteTxn txn, StoredEntry before, StoredEntry after) {
        if ((before != null && before.attribute(ACI_OID) != null)
                || (after != null && after.attribute(ACI_OID) != null)) {
            long id = after != null ? after.id() : before.id();
            txn.onCommit(() -> refresh(id, after));
        }
    }

    /**
     * Checks every {@code aci} value of an entry a client sends.
     *
     * @throws ResultCodeException invalidAttributeSyntax naming the value's problem and position
     */
    public void validate(Entry entry) {
        Attribute acis = entry.get(ACI_OID);
        if (acis != null) {
            validate(acis);
        }
    }

    /** Checks the {@code aci} values added or replaced by a modify. */
    public void validate(Iterable<Modification> mods) {
        for (Modification mod : mods) {
            if (mod.getOperation() != ModificationOperation.REMOVE_ATTRIBUTE) {
                AttributeType type = directory
                        .schemaNormalizer()
                        .typeOrNull(mod.getAttribute().getUpId());
                if (type != null && type.getOid().equals(ACI_OID)) {
                    validate(mod.getAttribute());
                }
            }
        }
    }

    private void validate(Attribute acis) {
        for (Value value : acis) {
            String text = value.getString();
            try {
                parser.parse(text);
            } catch (AciSyntaxException e) {
                throw new ResultCodeException(
                        ResultCodeEnum.INVALID_ATTRIBUTE_SYNTAX, "invalid aci: " + e.getMessage());
            }
        }
    }

    // ---- internals ------------------------------------------------------------------------------

    private Decider decider(Session session, ReadTxn txn) {
        return new Decider(snapshot, new Requester(session, schema, directory, txn), schema, directory, txn);
    }

    /** noSuchObject when the client may not read the entry at all, so a refusal does not reveal it. */
    private ResultCodeException refused(
            Session session, EntryRights rights, ReadTxn txn, StoredEntry entry, String message) {
        if ((rights.onEntry() & Rights.READ) == 0) {
            return noSuchObject(session, txn, directory.schemaNormalizer().dn(entry.dn()));
        }
        return new ResultCodeException(ResultCodeEnum.INSUFFICIENT_ACCESS_RIGHTS, message);
    }

    private static boolean onlyOwnDn(Requester who, Modification mod, AttributeType type) {
        if (who.isAnonymous()
                || (mod.getOperation() != ModificationOperation.ADD_ATTRIBUTE
                        && mod.getOperation() != ModificationOperation.REMOVE_ATTRIBUTE)
                || mod.getAttribute().size() == 0) {
            return false;
        }
        byte[][] values = new byte[mod.getAttribute().size()][];
        int i = 0;
        for (Value v : mod.getAttribute()) {
            values[i++] = v.getString().getBytes(UTF_8);
        }
        StoredAttribute proposed = new StoredAttribute(type.getOid(), type.getName(), values, type, null);
        byte[][] normalized = proposed.normalized();
        StoredAttribute own =
                new StoredAttribute(type.getOid(), type.getName(), new byte[][] {who.boundDnBytes()}, type, null);
        for (byte[] n : normalized) {
            if (!own.containsNormalized(n)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Parses new global rules ({@code access.file}, reloaded) without using them yet: the returned
     * action puts them in force, keeping the entries' {@code aci} values, for decisions made from
     * then on. Parsing first lets a reload check everything before it changes anything.
     *
     * @param file the rules file; null for the built-in rules
     * @throws IOException one line naming the file and the line of the first problem
     */
    public Runnable prepareGlobalRules(Path file) throws IOException {
        List<Aci> global = AccessFile.load(file, parser);
        return () -> {
            synchronized (refreshing) {
                snapshot = new AciSnapshot(global, snapshot.byHolder());
                rulesGeneration++;
            }
        };
    }

    /** Replaces the snapshot with one where entry {@code id} holds the ACIs of {@code after}. */
    private void refresh(long id, StoredEntry after) {
        List<Aci> acis = after == null ? List.of() : compile(parser, after);
        synchronized (refreshing) {
            AciSnapshot current = snapshot;
            Map<Long, List<Aci>> held = new HashMap<>(current.byHolder());
            if (acis.isEmpty()) {
                held.remove(id);
            } else {
                held.put(id, acis);
            }
            snapshot = new AciSnapshot(current.global(), held);
            rulesGeneration++;
        }
    }

    private static List<Aci> compile(AciParser parser, StoredEntry entry) {
        StoredAttribute values = entry.attribute(ACI_OID);
        if (values == null) {
            return List.of();
        }
        List<Aci> acis = new ArrayList<>();
        for (byte[] value : values.values()) {
            String text = new String(value, UTF_8);
            try {
                acis.add(parser.parseLenient(text));
            } catch (AciSyntaxException e) {
                LOG.warn("ignoring an aci of {} that does not parse: {}", entry.dn(), e.getMessage());
            }
        }
        return List.copyOf(acis);
    }

    /** For tests: a control over fixed rules, with no ACIs in the directory. */
    static AccessControl of(AciSchema schema, Directory directory, List<Aci> global, Map<Long, List<Aci>> held) {
        return new AccessControl(schema, directory, new AciSnapshot(global, held));
    }
}
