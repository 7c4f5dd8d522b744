package dev.larch.server.auth.policy;

import java.time.Clock;

import dev.larch.config.PasswordPolicySettings;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.directory.Directory;
import dev.larch.server.error.ResultCodeException;

/**
 * The password policy's parts, wired once per server over one directory and write queue: what the
 * bind handler, the modify handler and the router each call.
 *
 * @param bind the bind handler's hook
 * @param passwords the view of password changes that Modify, Add and Password Modify consult
 * @param mustChange the router's gate for sessions that must change a reset password
 */
public record PasswordPolicies(BindPolicy bind, PasswordModifications passwords, MustChangeGate mustChange) {

    /**
     * Wires the policy and registers the cache's invalidation with {@code writes}.
     *
     * @param maxIterations {@code security.max-password-iterations}, the bound on history checks
     * @param admission the bind admission, told which entries clients' writes changed
     * @throws IllegalArgumentException when {@code security.default-password-policy} is not a DN
     */
    public static PasswordPolicies create(
            Directory directory,
            WriteQueue writes,
            PasswordPolicySettings settings,
            int maxIterations,
            Clock clock,
            BindAdmission admission) {
        PolicyCache cache = new PolicyCache(directory);
        PolicyResolver resolver;
        try {
            resolver = new PolicyResolver(directory, cache, settings.defaultPolicyDn());
        } catch (ResultCodeException e) {
            throw new IllegalArgumentException(
                    "security.default-password-policy: not a valid DN: " + settings.defaultPolicyDn(), e);
        }
        writes.afterCommit(new PolicyInvalidation(directory.schemaNormalizer(), cache, admission));
        PasswordPolicyEnforcer enforcer = new PasswordPolicyEnforcer(resolver, clock, maxIterations);
        PasswordModifications passwords =
                new PasswordModifications(directory.schemaNormalizer(), enforcer, resolver, maxIterations);
        return new PasswordPolicies(
                new BindPolicy(directory, resolver, new PolicyStateWriter(directory, writes), clock),
                passwords,
                new MustChangeGate(directory.schemaNormalizer(), passwords));
    }
}
