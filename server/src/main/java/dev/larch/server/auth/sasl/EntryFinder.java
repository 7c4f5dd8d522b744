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
 * Finds the entry a SASL identity names: by its DN, or as the single entry under the suffix that an
 * attribute value, a certificate in {@code userCertificate} or a filter matches. Bounded: a lookup is
 * planned from indexes alone and reads at most {@link #MAX_CANDIDATES} entries, never walks the tree; a
 * filter no index answers, or that has more candidates, finds nothing. Thread-safe; each call opens and
 * closes its own read transaction.
 */
final class EntryFinder {
    private static final Logger LOG = LoggerFactory.getLogger(EntryFinder.class);
    /** More entries than this with the same value cannot name one identity. */
    static final int MAX_CANDIDATES = 8;

    private static final String USER_CERTIFICATE = "userCertificate";

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
        return matchAttribute(attribute, value).dn();
    }

    /** The one entry under the suffix with {@code attribute=value}, through the attribute's equality index. */
    Match matchAttribute(String attribute, String value) {
        Filter filter;
        try {
            filter = filters.compile(
                    FilterParser.parse("(" + attribute + "=" + FilterEncoder.encodeFilterValue(value) + ")"));
        } catch (ParseException | RuntimeException e) {
            return Match.none("the value is no valid assertion for " + attribute);
        }
        return match(filter, attribute);
    }

    /**
     * The one entry under the suffix whose {@code userCertificate} holds {@code der} byte for byte, read
     * through the equality index on {@code userCertificate}.
     */
    Match byCertificate(byte[] der) {
        Filter filter = filters.normalizedEquality(USER_CERTIFICATE, der);
        return filter == null ? Match.none("the schema has no " + USER_CERTIFICATE) : match(filter, USER_CERTIFICATE);
    }

    /**
     * The one entry under the suffix that {@code filter} matches, planned from indexes only: a filter
     * the indexes cannot narrow to at most {@link #MAX_CANDIDATES} entries finds nobody.
     *
     * @param indexed the attribute named in the warning when no index answers
     */
    Match match(Filter filter, String indexed) {
        try (ReadTxn txn = directory.store().read()) {
            IdSet ids = planner.plan(txn, filter).ids();
            if (ids == null) {
                LOG.warn(
                        "SASL identity lookup by {} found no usable equality index (index.{} = equality), or more"
                                + " than {} entries share the value; nobody is found by it",
                        indexed,
                        indexed,
                        MAX_CANDIDATES);
                return Match.none("no equality index answers the lookup, or more than " + MAX_CANDIDATES
                        + " entries are candidates");
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
                    return Match.none("more than one entry matches"); // the value names nobody in particular
                }
                found = directory.schemaNormalizer().dn(entry.dn());
            }
            return found == null ? Match.none("no entry matches") : new Match(found, null);
        }
    }

    /** Whether the entry {@code dn} holds {@code der} among its {@code userCertificate} values. */
    boolean holdsCertificate(Dn dn, byte[] der) {
        Filter filter = filters.normalizedEquality(USER_CERTIFICATE, der);
        if (filter == null) {
            return false;
        }
        try (ReadTxn txn = directory.store().read()) {
            long id = directory.resolve(txn, dn);
            StoredEntry entry = id == ReadTxn.NOT_FOUND ? null : directory.load(txn, id);
            return entry != null && filter.evaluate(entry) == Tri.TRUE;
        }
    }

    /**
     * What a lookup found.
     *
     * @param dn the one entry found, normalized; null when none or several
     * @param failure why nobody was found, for the server's log only; null when {@code dn} is set
     */
    record Match(Dn dn, String failure) {
        static Match none(String failure) {
            return new Match(null, failure);
        }
    }
}
