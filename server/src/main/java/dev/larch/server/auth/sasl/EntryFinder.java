package dev.larch.server.auth.sasl;

import java.text.ParseException;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.search.Filter;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.SearchPlanner;
import dev.larch.server.search.Tri;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.filter.FilterEncoder;
import org.apache.directory.api.ldap.model.filter.FilterParser;
import org.apache.directory.api.ldap.model.name.Dn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the entry a SASL identity names: by its DN, or as the single entry under the suffix whose
 * attribute equals a value. Bounded: an attribute lookup reads one key of the attribute's equality
 * index and at most {@link #MAX_CANDIDATES} entries, never walks the tree; an unindexed attribute or a
 * key with more candidates finds nothing. Thread-safe; each call opens and closes its own read
 * transaction.
 */
final class EntryFinder {
    private static final Logger LOG = LoggerFactory.getLogger(EntryFinder.class);
    /** More entries than this with the same value cannot name one identity. */
    static final int MAX_CANDIDATES = 8;

    private final Directory directory;
    private final FilterCompiler filters;
    private final SearchPlanner planner;

    EntryFinder(Directory directory, FilterCompiler filters, SearchPlanner planner) {
        this.directory = directory;
        this.filters = filters;
        this.planner = planner.capped(MAX_CANDIDATES);
    }

    /** {@code name} parsed and normalized by the schema; null when it is no valid DN. */
    Dn normalize(String name) {
        try {
            return directory.schemaNormalizer().dn(name);
        } catch (ResultCodeException e) {
            return null;
        }
    }

    /** {@code dn} normalized, as the schema compares DNs; null when it is no valid DN. */
    Dn normalize(Dn dn) {
        try {
            return directory.schemaNormalizer().dn(dn);
        } catch (ResultCodeException e) {
            return null;
        }
    }

    /** {@code name} normalized when an entry has it, else null; a malformed DN finds nothing. */
    Dn byDn(String name) {
        Dn dn = normalize(name);
        if (dn == null) {
            return null;
        }
        try (ReadTxn txn = directory.store().read()) {
            return directory.holds(dn) && directory.resolve(txn, dn) != ReadTxn.NOT_FOUND ? dn : null;
        }
    }

    /** The DN of the one entry under the suffix with {@code attribute=value}; null when none or several. */
    Dn byAttribute(String attribute, String value) {
        Filter filter;
        try {
            filter = filters.compile(
                    FilterParser.parse("(" + attribute + "=" + FilterEncoder.encodeFilterValue(value) + ")"));
        } catch (ParseException | RuntimeException e) {
            return null;
        }
        try (ReadTxn txn = directory.store().read()) {
            IdSet ids = planner.plan(txn, filter).ids();
            if (ids == null) {
                LOG.warn(
                        "SASL identity lookup by {} found no usable equality index (index.{} = equality), or more"
                                + " than {} entries share the value; nobody is found by it",
                        attribute,
                        attribute,
                        MAX_CANDIDATES);
                return null;
            }
            long suffixId = directory.resolve(txn, directory.suffix());
            Dn found = null;
            for (int i = 0; i < ids.size(); i++) {
                StoredEntry entry = directory.load(txn, ids.get(i));
                if (entry == null
                        || filter.evaluate(entry) != Tri.TRUE
                        || !directory.isWithin(txn, entry.id(), suffixId)) {
                    continue;
                }
                if (found != null) {
                    return null; // two entries: the value names nobody in particular
                }
                found = directory.schemaNormalizer().dn(entry.dn());
            }
            return found;
        }
    }
}
