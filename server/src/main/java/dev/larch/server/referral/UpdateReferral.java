package dev.larch.server.referral;

import java.util.List;

import dev.larch.server.error.ResultCodeException;

/**
 * On a read-only replica (a consumer that is not a multi-provider member), answers every write
 * (add, delete, modify, modify DN, password modify) with a referral to the providers it replicates
 * from, as slapd's {@code updateref} does: the replica's data is whatever its providers send, so a
 * write made here would be overwritten or lost. Nobody is exempt, the administrator included:
 * replicated changes are applied below the operation handlers, never through them.
 *
 * <p>Cost: one list check per write. Immutable and thread-safe.
 */
public final class UpdateReferral {
    private final List<String> providerUrls;

    /** @param providerUrls the providers' LDAP URLs, as configured; at least one */
    public UpdateReferral(List<String> providerUrls) {
        if (providerUrls.isEmpty()) {
            throw new IllegalArgumentException("a read-only replica refers writes to at least one provider");
        }
        this.providerUrls = List.copyOf(providerUrls);
    }

    /** The referral every write gets, to be thrown. */
    public ResultCodeException referral() {
        return ResultCodeException.referral(
                "this server is a read-only replica: send writes to its provider", null, providerUrls);
    }

    /** The URLs a write is referred to. */
    public List<String> providerUrls() {
        return providerUrls;
    }
}
