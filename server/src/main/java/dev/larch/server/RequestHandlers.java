package dev.larch.server;

import java.io.IOException;

import dev.larch.config.Limits;
import dev.larch.config.Security;
import dev.larch.schema.SubschemaEntry;
import dev.larch.server.access.AccessControl;
import dev.larch.server.access.AccessFile;
import dev.larch.server.access.AciParser;
import dev.larch.server.access.AciSchema;
import dev.larch.server.auth.BindHandler;
import dev.larch.server.auth.Credentials;
import dev.larch.server.auth.FailedBindDelays;
import dev.larch.server.read.CompareHandler;
import dev.larch.server.read.PausedSearches;
import dev.larch.server.read.SearchHandler;
import dev.larch.server.read.SearchLimits;
import dev.larch.server.read.SearchSlots;
import dev.larch.server.read.VirtualEntries;
import dev.larch.server.route.OperationRouter;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.SearchPlanner;
import dev.larch.server.work.WorkerPool;
import dev.larch.server.write.AddHandler;
import dev.larch.server.write.DeleteHandler;
import dev.larch.server.write.ModifyDnHandler;
import dev.larch.server.write.ModifyHandler;
import dev.larch.server.write.WriteQueue;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

/**
 * Wires the operation handlers over an open directory: the one place that decides which handler
 * gets which part of the server. Used by {@link LarchServer} and by benchmarks that drive the real
 * request path without a socket.
 */
public final class RequestHandlers {
    private RequestHandlers() {}

    /**
     * {@link #over(StoredDirectory, SchemaManager, Limits, Security, Credentials, WriteQueue, WorkerPool,
     * String, AccessControl)} with the built-in access rules (and the directory's {@code aci} values).
     */
    public static OperationRouter over(
            StoredDirectory open,
            SchemaManager schema,
            Limits limits,
            Security security,
            Credentials credentials,
            WriteQueue writes,
            WorkerPool workers,
            String version) {
        return over(open, schema, limits, security, credentials, writes, workers, version, builtInAccess(open, schema));
    }

    /** Access control over the built-in global rules and the directory's {@code aci} values. */
    public static AccessControl builtInAccess(StoredDirectory open, SchemaManager schema) {
        AciSchema aciSchema = new AciSchema(schema);
        try {
            return AccessControl.open(open.directory(), aciSchema, AccessFile.load(null, new AciParser(aciSchema)));
        } catch (IOException e) {
            throw new IllegalStateException("the built-in access rules do not parse: " + e.getMessage(), e);
        }
    }

    /**
     * The router serving every operation, without cross-cutting decorators (the access log).
     *
     * @param security the failed-bind delays are read from it
     * @param writes the queue that runs write transactions; the caller owns and closes it
     * @param workers the pool for CPU-heavy work (password hashing, searches that may run long); the
     *     caller owns and closes it
     * @param version shown as the root DSE's {@code vendorVersion}
     * @param access the access decisions every handler consults
     */
    public static OperationRouter over(
            StoredDirectory open,
            SchemaManager schema,
            Limits limits,
            Security security,
            Credentials credentials,
            WriteQueue writes,
            WorkerPool workers,
            String version,
            AccessControl access) {
        var directory = open.directory();
        VirtualEntries virtual = new VirtualEntries(
                directory.schemaNormalizer(),
                directory.suffix(),
                version,
                SubschemaEntry.build(schema, VirtualEntries.SUBSCHEMA_DN));
        SearchLimits searchLimits = new SearchLimits(
                limits.sizeLimit(), limits.timeLimitSeconds(), limits.lookThroughLimit(), limits.applyToAdmin());
        return new OperationRouter(
                new BindHandler(
                        directory,
                        credentials,
                        workers,
                        new FailedBindDelays(
                                security.bindFailureDelayMillis(),
                                security.bindFailureMaxDelayMillis(),
                                System::nanoTime)),
                new SearchHandler(
                        directory,
                        new FilterCompiler(schema),
                        new SearchPlanner(open.store(), limits.indexEntryLimit()),
                        access,
                        virtual,
                        searchLimits,
                        new PausedSearches(limits.pausedSearchSeconds(), limits.maxPausedSearches()),
                        workers,
                        new SearchSlots(limits.maxLongSearches(), "limits.max-long-searches")),
                new CompareHandler(directory, access),
                new AddHandler(directory, open.checker(), writes, access),
                new DeleteHandler(directory, writes, access),
                new ModifyHandler(directory, open.checker(), writes, access),
                new ModifyDnHandler(directory, open.checker(), writes, access));
    }
}
