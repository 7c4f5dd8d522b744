package dev.larch.server.quota;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import dev.larch.config.LarchConfig;
import dev.larch.config.RateQuotas;
import dev.larch.server.protocol.ConnectionEvent;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.protocol.Session;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ImmediateEventExecutor;
import org.apache.directory.api.ldap.model.message.BindRequestImpl;
import org.apache.directory.api.ldap.model.message.CompareRequestImpl;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.Response;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class RateLimitingHandlerTest {
    private static final long SECOND = 1_000_000_000L;

    private long now = 7 * SECOND;
    private final List<Operation> passed = new ArrayList<>();
    private final RequestHandler next = passed::add;

    /** Quotas as the {@code limits.rate-*} keys set them, with a one-second burst. */
    static RateQuotas quotas(int perIdentity, int perAddress, boolean applyToAdmin) {
        return LarchConfig.builder()
                .set("limits.rate-per-identity", perIdentity)
                .set("limits.rate-per-address", perAddress)
                .set("limits.rate-apply-to-admin", applyToAdmin)
                .build()
                .rateQuotas();
    }

    private RateLimitingHandler handler(RateQuotas quotas) {
        return new RateLimitingHandler(next, quotas, 1_000, () -> now);
    }

    private static Session session(String ip) throws Exception {
        return new Session(1, new InetSocketAddress(InetAddress.getByName(ip), 40_000));
    }

    private static Session bound(String ip, String dn, boolean admin) throws Exception {
        Session session = session(ip);
        session.bound(new Dn(dn), admin);
        return session;
    }

    private static FakeOperation compare(Session session) {
        CompareRequestImpl request = new CompareRequestImpl();
        request.setMessageId(3);
        return new FakeOperation(request, session);
    }

    private static FakeOperation bind(Session session) {
        BindRequestImpl request = new BindRequestImpl();
        request.setMessageId(4);
        return new FakeOperation(request, session);
    }

    /** Sends {@code count} operations made by {@code make}; returns how many were let through. */
    private int send(RateLimitingHandler handler, int count, Supplier<FakeOperation> make) {
        int before = passed.size();
        for (int i = 0; i < count; i++) {
            handler.handle(make.get());
        }
        return passed.size() - before;
    }

    @Test
    void noQuotaInstallsNothing() {
        assertSame(next, RateLimitingHandler.around(next, RateQuotas.OFF));
    }

    @Test
    void anAddressOverItsQuotaIsAnsweredBusyNamingTheQuota() throws Exception {
        RateLimitingHandler handler = handler(quotas(0, 5, false));
        Session client = session("192.0.2.1");
        assertEquals(5, send(handler, 5, () -> compare(client)));
        FakeOperation refused = compare(client);
        handler.handle(refused);
        assertEquals(5, passed.size());
        assertEquals(ResultCodeEnum.BUSY, refused.result().getLdapResult().getResultCode());
        assertEquals(3, refused.result().getMessageId());
        assertEquals(
                "rate limit of 5 operations per second per client address exceeded (limits.rate-per-address);"
                        + " try again later",
                refused.result().getLdapResult().getDiagnosticMessage());
    }

    @Test
    void theQuotaRefillsAtItsRate() throws Exception {
        RateLimitingHandler handler = handler(quotas(0, 5, false));
        Session client = session("192.0.2.1");
        assertEquals(5, send(handler, 10, () -> compare(client)));
        now += SECOND / 5;
        assertEquals(1, send(handler, 10, () -> compare(client)));
        now += SECOND;
        assertEquals(5, send(handler, 10, () -> compare(client)));
    }

    @Test
    void addressesAreCountedSeparatelyAndOverAllTheirConnections() throws Exception {
        RateLimitingHandler handler = handler(quotas(0, 5, false));
        Session first = session("192.0.2.1");
        Session second = session("192.0.2.1");
        assertEquals(3, send(handler, 3, () -> compare(first)));
        assertEquals(2, send(handler, 5, () -> compare(second)));
        Session other = session("192.0.2.2");
        assertEquals(5, send(handler, 10, () -> compare(other)));
    }

    @Test
    void identitiesAreCountedSeparatelyWhateverTheirAddress() throws Exception {
        RateLimitingHandler handler = handler(quotas(4, 0, false));
        Session alice1 = bound("192.0.2.1", "uid=alice,dc=example,dc=com", false);
        Session alice2 = bound("192.0.2.2", "uid=alice,dc=example,dc=com", false);
        Session bob = bound("192.0.2.1", "uid=bob,dc=example,dc=com", false);
        assertEquals(2, send(handler, 2, () -> compare(alice1)));
        assertEquals(2, send(handler, 5, () -> compare(alice2)));
        assertEquals(4, send(handler, 10, () -> compare(bob)));
        FakeOperation refused = compare(alice1);
        handler.handle(refused);
        assertEquals(
                "rate limit of 4 operations per second per identity exceeded (limits.rate-per-identity);"
                        + " try again later",
                refused.result().getLdapResult().getDiagnosticMessage());
    }

    @Test
    void anonymousSessionsAndBindsAreHeldOnlyByTheAddressQuota() throws Exception {
        RateLimitingHandler identityOnly = handler(quotas(2, 0, false));
        Session anonymous = session("192.0.2.1");
        assertEquals(50, send(identityOnly, 50, () -> compare(anonymous)));
        Session alice = bound("192.0.2.1", "uid=alice,dc=example,dc=com", false);
        assertEquals(50, send(identityOnly, 50, () -> bind(alice)));

        RateLimitingHandler addressOnly = handler(quotas(0, 2, false));
        Session binding = session("192.0.2.9");
        assertEquals(2, send(addressOnly, 50, () -> bind(binding)));
    }

    @Test
    void theAdministratorIsExemptUnlessConfigured() throws Exception {
        Session admin = bound("192.0.2.1", "cn=admin,dc=example,dc=com", true);
        RateLimitingHandler exempt = handler(quotas(2, 2, false));
        assertEquals(100, send(exempt, 100, () -> compare(admin)));
        RateLimitingHandler applied = handler(quotas(2, 2, true));
        assertEquals(2, send(applied, 100, () -> compare(admin)));
    }

    @Test
    void aRequestRefusedByTheAddressQuotaSpendsNoIdentityToken() throws Exception {
        RateLimitingHandler handler = handler(quotas(3, 2, false));
        Session aliceHere = bound("192.0.2.1", "uid=alice,dc=example,dc=com", false);
        Session aliceThere = bound("192.0.2.2", "uid=alice,dc=example,dc=com", false);
        assertEquals(2, send(handler, 20, () -> compare(aliceHere)));
        assertEquals(1, send(handler, 20, () -> compare(aliceThere)));
    }

    @Test
    void eventsAndEndingsPassThrough() throws Exception {
        List<Object> seen = new ArrayList<>();
        RequestHandler recording = new RequestHandler() {
            @Override
            public void handle(Operation operation) {}

            @Override
            public void ended(Operation operation, ResultResponse response) {
                seen.add(operation);
            }

            @Override
            public void connectionEvent(Session session, ConnectionEvent event) {
                seen.add(event);
            }
        };
        RateLimitingHandler handler = new RateLimitingHandler(recording, quotas(0, 1, false), 10, () -> now);
        FakeOperation op = compare(session("192.0.2.1"));
        handler.ended(op, null);
        handler.connectionEvent(op.session(), ConnectionEvent.OPENED);
        assertEquals(List.of(op, ConnectionEvent.OPENED), seen);
    }

    /** An operation that records its final response; nothing else is used by the handler. */
    private static final class FakeOperation implements Operation {
        private final Request request;
        private final Session session;
        private ResultResponse result;

        FakeOperation(Request request, Session session) {
            this.request = request;
            this.session = session;
        }

        ResultResponse result() {
            return result;
        }

        @Override
        public Request request() {
            return request;
        }

        @Override
        public Session session() {
            return session;
        }

        @Override
        public EventExecutor executor() {
            return ImmediateEventExecutor.INSTANCE;
        }

        @Override
        public boolean send(Response response) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isWritable() {
            return true;
        }

        @Override
        public void onWritable(Runnable resume) {
            resume.run();
        }

        @Override
        public boolean isAbandoned() {
            return false;
        }

        @Override
        public void complete(ResultResponse response) {
            assertNull(result, "completed twice");
            result = response;
        }

        @Override
        public int entriesSent() {
            return 0;
        }

        @Override
        public long startNanos() {
            return 0;
        }
    }
}
