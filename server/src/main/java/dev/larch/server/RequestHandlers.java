package dev.larch.server;

import dev.larch.config.Limits;
import dev.larch.config.Passwords;
import dev.larch.config.Security;
import dev.larch.schema.SubschemaEntry;
import dev.larch.server.auth.AccessPolicy;
import dev.larch.server.auth.BindHandler;
import dev.larch.server.auth.Credentials;
import dev.larch.server.auth.FailedBindDelays;
import dev.larch.server.auth.HashCostLimits;
import dev.larch.server.auth.IncomingPasswords;
import dev.larch.server.auth.PasswordAttributes;
import dev.larch.server.auth.PasswordChangeCheck;
import dev.larch.server.auth.PasswordHasher;
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
import dev.larch.server.write.PasswordModifyHandler;
import dev.larch.server.write.PasswordWork;
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
     * The router serving every operation, without cross-cutting decorators (the access log).
     *
     * @param security the failed-bind delays are read from it
     * @param writes the queue that runs write transactions; the caller owns and closes it
     * @param workers the pool for CPU-heavy work (password hashing, searches that may run long); the
     *     caller owns and closes it
     * @param version shown as the root DSE's {@code vendorVersion}
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
        return over(
                open,
                schema,
                limits,
                security,
                credentials,
                writes,
                workers,
                version,
                Passwords.DEFAULTS,
                PasswordChangeCheck.NONE);
    }

    /**
     * {@link #over(StoredDirectory, SchemaManager, Limits, Security, Credentials, WriteQueue, WorkerPool,
     * String)} with the password storage settings and the rule every new password must pass.
     *
     * @param passwords how written passwords are hashed ({@code security.pbkdf2-iterations} and the rest)
     * @param changeCheck called before a new cleartext password is hashed (password policy plugs in here)
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
            Passwords passwords,
            PasswordChangeCheck changeCheck) {
        var directory = open.directory();
        PasswordAttributes passwordAttributes = PasswordAttributes.of(schema);
        PasswordWork passwordWork = new PasswordWork(
                workers,
                new IncomingPasswords(
                        passwordAttributes,
                        new PasswordHasher(security.passwordScheme(), passwords),
                        passwords.allowPrehashedPasswords(),
                        changeCheck,
                        HashCostLimits.of(security.maxPasswordIterations(), passwords)));
        VirtualEntries virtual = new VirtualEntries(
                directory.schemaNormalizer(),
                directory.suffix(),
                version,
                SubschemaEntry.build(schema, VirtualEntries.SUBSCHEMA_DN));
        AccessPolicy access = new AccessPolicy(passwordAttributes);
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
                new AddHandler(directory, open.checker(), writes, access, passwordWork),
                new DeleteHandler(directory, writes, access),
                new ModifyHandler(directory, open.checker(), writes, access, passwordWork),
                new ModifyDnHandler(directory, open.checker(), writes, access),
                new PasswordModifyHandler(directory, open.checker(), writes, passwordWork, credentials.adminDn()));
    }
}
