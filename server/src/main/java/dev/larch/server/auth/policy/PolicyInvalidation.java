package dev.larch.server.auth.policy;

import java.util.function.Consumer;

import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.error.ResultCodeException;
import org.apache.directory.api.ldap.model.message.AddRequest;
import org.apache.directory.api.ldap.model.message.DeleteRequest;
import org.apache.directory.api.ldap.model.message.ModifyDnRequest;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Tells the {@link PolicyCache} and the {@link BindAdmission} which entry a committed client write
 * changed: the entry added, modified or deleted; a rename may move any number of policies and
 * accounts, so it forgets them all. Runs on the writer thread after the commit.
 */
public final class PolicyInvalidation implements Consumer<Request> {
    private final SchemaNormalizer schemaNormalizer;
    private final PolicyCache cache;
    private final BindAdmission admission;

    public PolicyInvalidation(SchemaNormalizer schemaNormalizer, PolicyCache cache, BindAdmission admission) {
        this.schemaNormalizer = schemaNormalizer;
        this.cache = cache;
        this.admission = admission;
    }

    @Override
    public void accept(Request request) {
        try {
            switch (request) {
                case AddRequest r -> invalidate(schemaNormalizer.dn(r.getEntryDn()));
                case ModifyRequest r -> invalidate(schemaNormalizer.dn(r.getName()));
                case DeleteRequest r -> invalidate(schemaNormalizer.dn(r.getName()));
                case ModifyDnRequest r -> invalidateAll();
                default -> {}
            }
        } catch (ResultCodeException e) {
            // The write committed, so its DN parsed before; forget everything rather than guess.
            invalidateAll();
        }
    }

    private void invalidate(Dn dn) {
        cache.invalidate(dn);
        admission.forget(dn.getNormName());
    }

    private void invalidateAll() {
        cache.invalidateAll();
        admission.forgetAll();
    }
}
