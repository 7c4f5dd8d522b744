package dev.larch.server.testing;

import java.io.StringReader;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.larch.config.IndexKind;
import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.directory.ChangeStamps;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.search.Filter;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.SearchCursor;
import dev.larch.server.search.SearchPlanner;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.StoreOptions;
import dev.larch.server.store.WriteTxn;
import dev.larch.server.write.NewEntries;
import org.apache.directory.api.ldap.model.filter.FilterParser;
import org.apache.directory.api.ldap.model.ldif.LdifEntry;
import org.apache.directory.api.ldap.model.ldif.LdifReader;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

/** A real LMDB store in a temporary directory with the standard schema, for engine tests. */
public final class TestTree implements AutoCloseable {
    public static final Map<String, Set<IndexKind>> DEFAULT_INDEXES = Map.of(
            "2.5.4.0", Set.of(IndexKind.EQUALITY), // objectClass
            "0.9.2342.19200300.100.1.1", Set.of(IndexKind.EQUALITY, IndexKind.SUBSTRING), // uid
            "0.9.2342.19200300.100.1.3", Set.of(IndexKind.EQUALITY, IndexKind.SUBSTRING), // mail
            "2.5.4.3", Set.of(IndexKind.EQUALITY, IndexKind.SUBSTRING), // cn
            "2.5.4.4", Set.of(IndexKind.EQUALITY, IndexKind.SUBSTRING, IndexKind.ORDERING), // sn
            "1.3.6.1.1.1.1.0", Set.of(IndexKind.EQUALITY, IndexKind.ORDERING), // uidNumber
            "2.5.4.20", Set.of(IndexKind.PRESENCE), // telephoneNumber
            "2.5.18.1", Set.of(IndexKind.ORDERING)); // createTimestamp

    public final SchemaManager schema = LarchSchema.standard();
    public final SchemaNormalizer schemaNormalizer = new SchemaNormalizer(schema);
    public final LmdbStore store;
    public final Directory directory;
    public final NewEntries newEntries;
    public final FilterCompiler compiler = new FilterCompiler(schema);
    public final SearchPlanner planner;

    public TestTree(Path dir) {
        this(dir, DEFAULT_INDEXES, 1000);
    }

    public TestTree(Path dir, Map<String, Set<IndexKind>> indexes, int indexEntryLimit) {
        store = LmdbStore.open(dir, new StoreOptions(1L << 30, 126, false), indexes);
        directory = new Directory(
                store,
                schemaNormalizer,
                schemaNormalizer.dn("dc=example,dc=com"),
                ChangeStamps.forStore(store, schema, LarchConfig.defaults().replication()));
        newEntries = new NewEntries(directory, new SchemaChecker(schema));
        planner = new SearchPlanner(store, indexEntryLimit);
    }

    /** Adds the entries of an LDIF text, in order, in one transaction. */
    public TestTree add(String ldif) {
        try (LdifReader reader = new LdifReader(new StringReader(ldif));
                WriteTxn txn = store.write()) {
            for (LdifEntry e : reader) {
                Dn dn = schemaNormalizer.dn(e.getDn().getName());
                newEntries.insert(txn, newEntries.prepare(dn, e.getEntry(), true, Dn.EMPTY_DN));
            }
            txn.commit();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return this;
    }

    public Filter filter(String text) {
        try {
            return compiler.compile(FilterParser.parse(text));
        } catch (ParseException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** DNs a search returns, in the order the cursor yields them. */
    public List<String> search(String base, SearchScope scope, String filterText) {
        Filter filter = filter(filterText);
        List<String> out = new ArrayList<>();
        try (ReadTxn txn = store.read()) {
            long baseId = directory.require(txn, schemaNormalizer.dn(base));
            IdSet candidates = scope == SearchScope.OBJECT
                    ? null
                    : planner.plan(txn, filter).ids();
            try (SearchCursor cursor = new SearchCursor(directory, txn, baseId, scope, filter, candidates, 0)) {
                for (StoredEntry e = cursor.next(); e != null; e = cursor.next()) {
                    out.add(e.dn());
                }
            }
        }
        return out;
    }

    @Override
    public void close() {
        store.close();
    }
}
