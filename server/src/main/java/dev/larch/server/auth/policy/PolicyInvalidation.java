package dev.larch.server.auth.policy;

import java.util.function.Consumer;

import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.error.ResultCodeException;
import org.apache.directory.api.ldap.model.message.AddRequest;
import org.apache.directory.api.ldap.model.message.DeleteRequest;
import org.apache.directory.api.ldap.model.message.ModifyDnRequest;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.Request;

/**
 * Tells the {@link PolicyCache} which entry a committed write changed: the entry added, modified or
 * deleted; a rename may move any number of policies, so it forgets them all. Runs on the writer
 * thread after the commit.
 */
public final class PolicyInvalidation implements Consumer<Request> {
    private final SchemaNormalizer schemaNormalizer;
    private final PolicyCache cache;

    public PolicyInvalidation(SchemaNormalizer schemaNormalizer, PolicyCache cache) {
        this.schemaNormalizer = schemaNormalizer;
        this.cache = cache;
    }

    @Override
    public void accept(Request request) {
        try {
            switch (request) {
                case AddRequest r -> cache.invalidate(schemaNormalizer.dn(r.getEntryDn()));
                case ModifyRequest r -> cache.invalidate(schemaNormalizer.dn(r.getName()));
                case DeleteRequest r -> cache.invalidate(schemaNormalizer.dn(r.getName()));
                case ModifyDnRequest r -> cache.invalidateAll();
                default -> {}
            }
        } catch (ResultCodeException e) {
            // The write committed, so its DN parsed before; forget everything rather than guess.
            cache.invalidateAll();
        }
    }
}
