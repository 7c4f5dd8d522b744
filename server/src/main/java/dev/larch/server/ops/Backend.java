package dev.larch.server.ops;

import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.SearchPlanner;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Everything the operation handlers share: the tree, the schema tools, the search engine, the
 * write queue, limits and credentials. Immutable once built; thread-safe.
 *
 * @param sizeLimit server-wide maximum entries per search, 0 for none (the administrator is exempt)
 * @param timeLimitSeconds server-wide maximum seconds per search, 0 for none (administrator exempt)
 * @param lookThroughLimit entries an unindexed search may examine, 0 for none (administrator exempt)
 */
public record Backend(
        Directory directory,
        SchemaNormalizer schemaNormalizer,
        SchemaChecker checker,
        FilterCompiler filters,
        SearchPlanner planner,
        WriteQueue writes,
        AccessPolicy access,
        Credentials credentials,
        VirtualEntries virtualEntries,
        int sizeLimit,
        int timeLimitSeconds,
        int lookThroughLimit) {

    /** The administrator's DN: {@code cn=admin,<suffix>}. */
    public Dn adminDn() {
        return credentials.adminDn();
    }
}
