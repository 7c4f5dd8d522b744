package dev.larch.server.auth.policy;

import java.util.Optional;

import dev.larch.server.directory.Directory;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Which policy governs an entry: the one its {@code pwdPolicySubentry} names, else the configured
 * default ({@code security.default-password-policy}), else none. Thread-safe.
 */
public final class PolicyResolver {
    private final Directory directory;
    private final PolicyCache cache;
    private final Dn defaultPolicy;

    /** @param defaultPolicyDn the configured default; empty for none */
    public PolicyResolver(Directory directory, PolicyCache cache, String defaultPolicyDn) {
        this.directory = directory;
        this.cache = cache;
        this.defaultPolicy =
                defaultPolicyDn.isEmpty() ? null : directory.schemaNormalizer().dn(defaultPolicyDn);
    }

    /** The policy of an entry whose state is {@code state}, read in {@code txn}; empty when none governs it. */
    public Optional<PasswordPolicy> governing(ReadTxn txn, PasswordState state) {
        Dn named = defaultPolicy;
        if (state.policySubentry() != null) {
            try {
                named = directory.schemaNormalizer().dn(state.policySubentry());
            } catch (ResultCodeException e) {
                // The schema checked the value when it was written; a DN it can no longer parse governs nothing.
                return Optional.empty();
            }
        }
        return named == null ? Optional.empty() : cache.get(txn, named);
    }

    public PolicyCache cache() {
        return cache;
    }
}
