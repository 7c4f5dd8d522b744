package dev.larch.server;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import dev.larch.config.Access;
import dev.larch.config.IntegrityRules;
import dev.larch.config.LarchConfig;
import dev.larch.config.Limits;
import dev.larch.config.PasswordPolicySettings;
import dev.larch.config.Passwords;
import dev.larch.config.Replication;
import dev.larch.config.ReplicationConsumer;
import dev.larch.config.ResultControls;
import dev.larch.config.Security;
import dev.larch.config.Tls;
import dev.larch.schema.SubschemaEntry;
import dev.larch.server.access.AccessControl;
import dev.larch.server.access.AccessFile;
import dev.larch.server.access.AciParser;
import dev.larch.server.access.AciSchema;
import dev.larch.server.auth.BindHandler;
import dev.larch.server.auth.Credentials;
import dev.larch.server.auth.FailedBindDelays;
import dev.larch.server.auth.HashCostLimits;
import dev.larch.server.auth.IncomingPasswords;
import dev.larch.server.auth.PasswordAttributes;
import dev.larch.server.auth.PasswordHasher;
import dev.larch.server.auth.PasswordRehash;
import dev.larch.server.auth.ProxiedAuthorization;
import dev.larch.server.auth.SessionRevocations;
import dev.larch.server.auth.SuspectChecks;
import dev.larch.server.auth.TransportRule;
import dev.larch.server.auth.policy.BindAdmission;
import dev.larch.server.auth.policy.PasswordGuesses;
import dev.larch.server.auth.policy.PasswordPolicies;
import dev.larch.server.auth.policy.PpolicyControls;
import dev.larch.server.auth.sasl.SaslBinds;
import dev.larch.server.commit.NoOperation;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.control.AssertionControl;
import dev.larch.server.control.ReadEntryControl;
import dev.larch.server.group.MemberOfMaintainer;
import dev.larch.server.monitor.MonitorSubtreeHandler;
import dev.larch.server.read.CompareHandler;
import dev.larch.server.read.CurrentSearchLimits;
import dev.larch.server.read.Paging;
import dev.larch.server.read.PausedSearches;
import dev.larch.server.read.SearchHandler;
import dev.larch.server.read.SearchSlots;
import dev.larch.server.read.VirtualEntries;
import dev.larch.server.read.psearch.PersistentSearches;
import dev.larch.server.read.sync.SyncSearches;
import dev.larch.server.referral.ManageDsaIt;
import dev.larch.server.referral.ReferralGate;
import dev.larch.server.referral.UpdateReferral;
import dev.larch.server.route.OperationRouter;
import dev.larch.server.route.SupportedControls;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.GroupGraph;
import dev.larch.server.search.MatchedValues;
import dev.larch.server.search.ResultEntries;
import dev.larch.server.search.SearchPlanner;
import dev.larch.server.work.WorkerPool;
import dev.larch.server.write.AddHandler;
import dev.larch.server.write.DeleteHandler;
import dev.larch.server.write.Integrity;
import dev.larch.server.write.ModifyDnHandler;
import dev.larch.server.write.ModifyHandler;
import dev.larch.server.write.PasswordModifyHandler;
import dev.larch.server.write.PasswordWork;
import org.apache.directory.api.ldap.extras.controls.vlv.VirtualListViewRequest;
import org.apache.directory.api.ldap.model.message.MessageTypeEnum;
import org.apache.directory.api.ldap.model.message.controls.PersistentSearch;
import org.apache.directory.api.ldap.model.message.controls.SortRequest;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

/**
 * Wires the operation handlers over an open directory: the one place that decides which handler
 * gets which part of the server. Used by {@link LarchServer} and by benchmarks that drive the real
 * request path without a socket.
 */
public final class RequestHandlers {
    /** RFC 6171's don't-use-copy control. */
    static final String DONT_USE_COPY_OID = "1.3.6.1.1.22";

    private RequestHandlers() {}

    /**
     * What a write gets on a read-only replica (consumers configured, not a multi-provider member): a
     * referral to its providers; null when this server takes writes.
     */
    static UpdateReferral updateReferral(Replication replication) {
        if (replication.consumers().isEmpty() || replication.multiProvider()) {
            return null;
        }
        return new UpdateReferral(replication.consumers().stream()
                .map(ReplicationConsumer::providerUrl)
                .toList());
    }

    /**
     * The router serving every operation as {@code config} sets it up, without cross-cutting
     * decorators (the access log, rate quotas).
     *
     * @param writes the queue that runs write transactions; the caller owns and closes it
     * @param workers the pool for CPU-heavy work (password hashing, searches that may run long); the
     *     caller owns and closes it
     * @param version shown as the root DSE's {@code vendorVersion}
     * @param access the access decisions every handler consults, loaded from {@code access.file}
     * @param searchLimits the search bounds, which a reload may replace (made from {@code config}'s
     *     limits by {@link CurrentSearchLimits#of})
     */
    public static OperationRouter over(
            StoredDirectory open,
            SchemaManager schema,
            LarchConfig config,
            Credentials credentials,
            WriteQueue writes,
            WorkerPool workers,
            String version,
            AccessControl access,
            CurrentSearchLimits searchLimits) {
        return wire(
                open,
                schema,
                config.limits(),
                searchLimits,
                config.security(),
                config.tls(),
                config.passwordPolicy(),
                config.passwords(),
                config.resultControls(),
                config.integrity(),
                config.access(),
                access,
                credentials,
                writes,
                workers,
                version,
                config.metrics().monitor() ? MonitorSubtreeHandler.context() : null,
                config.replication());
    }

    /**
     * As above with the given limits and security settings and the defaults for the rest (no TLS, no
     * default password policy, the default password storage, the built-in access rules): for benchmarks and tests that drive handlers without a socket.
     *
     * @param security the failed-bind delays are read from it
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
        return wire(
                open,
                schema,
                limits,
                new CurrentSearchLimits(CurrentSearchLimits.of(limits)),
                security,
                LarchConfig.defaults().tls(),
                LarchConfig.defaults().passwordPolicy(),
                LarchConfig.defaults().passwords(),
                LarchConfig.defaults().resultControls(),
                IntegrityRules.NONE,
                LarchConfig.defaults().access(),
                builtInAccess(open, schema),
                credentials,
                writes,
                workers,
                version,
                null,
                LarchConfig.defaults().replication());
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

    private static OperationRouter wire(
            StoredDirectory open,
            SchemaManager schema,
            Limits limits,
            CurrentSearchLimits searchLimits,
            Security security,
            Tls tls,
            PasswordPolicySettings passwordPolicy,
            Passwords passwords,
            ResultControls resultControls,
            IntegrityRules integrityRules,
            Access connectionRules,
            AccessControl access,
            Credentials credentials,
            WriteQueue writes,
            WorkerPool workers,
            String version,
            String monitorContext,
            Replication replication) {
        var directory = open.directory();
        // A write's noSuchObject names only an ancestor its client may read.
        writes.hidingFailures(access::hidingAncestors);
        SaslBinds sasl = SaslBinds.over(
                directory, new FilterCompiler(schema), new SearchPlanner(open.store(), limits.indexEntryLimit()), tls);
        BindAdmission admission = new BindAdmission(
                passwords.adminMaxFailures(), passwords.adminLockoutSeconds(), Clock.systemUTC(), System::nanoTime);
        PasswordPolicies policies = PasswordPolicies.create(
                directory, writes, passwordPolicy, security.maxPasswordIterations(), Clock.systemUTC(), admission);
        PasswordAttributes passwordAttributes = PasswordAttributes.of(schema);
        PasswordWork passwordWork = new PasswordWork(
                workers,
                new IncomingPasswords(
                        passwordAttributes,
                        new PasswordHasher(security.passwordScheme(), passwords),
                        passwords.allowPrehashedPasswords(),
                        HashCostLimits.of(security.maxPasswordIterations(), passwords)),
                new PasswordGuesses(admission, policies.bind()));
        SupportedControls controls = SupportedControls.builder()
                .offer(PpolicyControls.OID, SupportedControls.ALL_OPERATIONS)
                .offer(Paging.OID, MessageTypeEnum.SEARCH_REQUEST)
                .offer(SortRequest.OID, MessageTypeEnum.SEARCH_REQUEST)
                .offer(
                        AssertionControl.OID,
                        MessageTypeEnum.SEARCH_REQUEST,
                        MessageTypeEnum.COMPARE_REQUEST,
                        MessageTypeEnum.DEL_REQUEST,
                        MessageTypeEnum.MODIFY_REQUEST,
                        MessageTypeEnum.MODIFYDN_REQUEST)
                .offer(VirtualListViewRequest.OID, MessageTypeEnum.SEARCH_REQUEST)
                .offer(PersistentSearch.OID, MessageTypeEnum.SEARCH_REQUEST)
                .offer(SyncSearches.OID, MessageTypeEnum.SEARCH_REQUEST)
                .offer(
                        ManageDsaIt.OID,
                        MessageTypeEnum.SEARCH_REQUEST,
                        MessageTypeEnum.COMPARE_REQUEST,
                        MessageTypeEnum.ADD_REQUEST,
                        MessageTypeEnum.DEL_REQUEST,
                        MessageTypeEnum.MODIFY_REQUEST,
                        MessageTypeEnum.MODIFYDN_REQUEST)
                .offer(ModifyHandler.PERMISSIVE_MODIFY_OID, MessageTypeEnum.MODIFY_REQUEST)
                .offer(DeleteHandler.SUBTREE_DELETE_OID, MessageTypeEnum.DEL_REQUEST)
                .offer(
                        ReadEntryControl.PRE_READ_OID,
                        MessageTypeEnum.DEL_REQUEST,
                        MessageTypeEnum.MODIFY_REQUEST,
                        MessageTypeEnum.MODIFYDN_REQUEST)
                .offer(
                        ReadEntryControl.POST_READ_OID,
                        MessageTypeEnum.ADD_REQUEST,
                        MessageTypeEnum.MODIFY_REQUEST,
                        MessageTypeEnum.MODIFYDN_REQUEST)
                .offer(
                        NoOperation.OID,
                        MessageTypeEnum.ADD_REQUEST,
                        MessageTypeEnum.DEL_REQUEST,
                        MessageTypeEnum.MODIFY_REQUEST,
                        MessageTypeEnum.MODIFYDN_REQUEST)
                .offer(
                        NoOperation.OPENLDAP_OID,
                        MessageTypeEnum.ADD_REQUEST,
                        MessageTypeEnum.DEL_REQUEST,
                        MessageTypeEnum.MODIFY_REQUEST,
                        MessageTypeEnum.MODIFYDN_REQUEST)
                .offer(MatchedValues.OID, MessageTypeEnum.SEARCH_REQUEST)
                // Don't use copy (RFC 6171): Larch serves no copies, so every answer honours it.
                .offer(DONT_USE_COPY_OID, MessageTypeEnum.SEARCH_REQUEST, MessageTypeEnum.COMPARE_REQUEST)
                .offer(
                        ProxiedAuthorization.OID,
                        MessageTypeEnum.SEARCH_REQUEST,
                        MessageTypeEnum.COMPARE_REQUEST,
                        MessageTypeEnum.ADD_REQUEST,
                        MessageTypeEnum.DEL_REQUEST,
                        MessageTypeEnum.MODIFY_REQUEST,
                        MessageTypeEnum.MODIFYDN_REQUEST,
                        MessageTypeEnum.EXTENDED_REQUEST)
                .build();
        List<String> extensions = new ArrayList<>(
                List.of(VirtualEntries.WHO_AM_I_OID, VirtualEntries.PASSWORD_MODIFY_OID, VirtualEntries.CANCEL_OID));
        if (tls.configured()) {
            extensions.add(VirtualEntries.START_TLS_OID);
        }
        VirtualEntries virtual = new VirtualEntries(
                directory.schemaNormalizer(),
                directory.suffix(),
                version,
                SubschemaEntry.build(schema, ResultEntries.SUBSCHEMA_DN),
                extensions,
                sasl.mechanisms(),
                controls.oids(),
                monitorContext);
        Integrity integrity = new Integrity(
                directory,
                new FilterCompiler(schema),
                new SearchPlanner(open.store(), limits.indexEntryLimit()),
                open.checker(),
                integrityRules.referenceAttributes(),
                integrityRules.uniqueAttributes());
        PersistentSearches persistentSearches = new PersistentSearches(
                directory,
                new FilterCompiler(schema),
                new SearchPlanner(open.store(), limits.indexEntryLimit()),
                access,
                writes,
                resultControls.maxPersistentSearches(),
                resultControls.persistentSearchQueue());
        // Every change the directory makes, from any handler, reaches the persistent searches.
        directory.observe(persistentSearches);
        // ... and keeps the stored memberOf values of the entries it affects, before it commits.
        directory.maintainMemberOf(new MemberOfMaintainer(
                directory,
                new GroupGraph(
                        directory,
                        new FilterCompiler(schema),
                        new SearchPlanner(open.store(), limits.indexEntryLimit()))));
        return new OperationRouter(
                new BindHandler(
                        directory,
                        credentials,
                        workers,
                        new FailedBindDelays(
                                security.bindFailureDelayMillis(),
                                security.bindFailureMaxDelayMillis(),
                                passwords.ipv6PrefixBits(),
                                System::nanoTime),
                        sasl,
                        new TransportRule(tls.requireTlsForBinds()),
                        policies.bind(),
                        admission,
                        passwords.rehashOnBind()
                                ? new PasswordRehash(
                                        directory, writes, new PasswordHasher(security.passwordScheme(), passwords))
                                : null,
                        new SuspectChecks(
                                passwords.suspectChecksPerAddress(),
                                passwords.suspectChecksTotal() > 0
                                        ? passwords.suspectChecksTotal()
                                        : Math.max(passwords.suspectChecksPerAddress(), 8 * workers.threads()))),
                new SearchHandler(
                        directory,
                        new FilterCompiler(schema),
                        new SearchPlanner(open.store(), limits.indexEntryLimit()),
                        access,
                        virtual,
                        searchLimits,
                        new PausedSearches(limits.pausedSearchSeconds(), limits.maxPausedSearches()),
                        workers,
                        new SearchSlots(limits.maxLongSearches(), "limits.max-long-searches"),
                        resultControls,
                        persistentSearches,
                        new SyncSearches(
                                replication.serverId(),
                                replication.hasConsumerDn()
                                        ? directory.schemaNormalizer().dn(replication.consumerDn())
                                        : null,
                                persistentSearches)),
                new CompareHandler(directory, access),
                new AddHandler(
                        directory, open.checker(), writes, access, passwordWork, policies.passwords(), integrity),
                new DeleteHandler(directory, writes, access, searchLimits, integrity),
                new ModifyHandler(
                        directory, open.checker(), writes, access, passwordWork, policies.passwords(), integrity),
                new ModifyDnHandler(directory, open.checker(), writes, access, integrity),
                policies.mustChange(),
                new PasswordModifyHandler(
                        directory,
                        open.checker(),
                        writes,
                        passwordWork,
                        credentials.adminDn(),
                        access,
                        policies.passwords()),
                controls,
                new ProxiedAuthorization(
                        directory,
                        access,
                        new FilterCompiler(schema),
                        new SearchPlanner(open.store(), limits.indexEntryLimit()),
                        policies.bind()),
                new ReferralGate(directory, access, new FilterCompiler(schema)),
                updateReferral(replication),
                connectionRules.minSsf(),
                connectionRules.allowAnonymous(),
                new SessionRevocations(directory.schemaNormalizer()),
                replication.consumers().isEmpty()
                        ? null
                        : new OperationRouter.LoadingGateSettings(directory, credentials.adminDn()));
    }
}
