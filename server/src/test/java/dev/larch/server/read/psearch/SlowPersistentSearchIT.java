package dev.larch.server.read.psearch;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.ModifyRequestProtocolOp;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DereferencePolicy;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.PersistentSearchChangeType;
import com.unboundid.ldap.sdk.controls.PersistentSearchRequestControl;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A persistent search whose client stops reading is disconnected once {@value #QUEUE} notifications
 * wait for it, while the writer and a client that reads go on undisturbed: the server never buffers
 * without bound for a slow listener, nor slows its writes for it.
 */
class SlowPersistentSearchIT {
    private static final int QUEUE = 20;
    /** Each change's notification is about 48 KB: far more in all than socket buffers and the queue hold. */
    private static final int CHANGES = 400;

    private static final String UNIT = "ou=slow," + TestServer.SUFFIX;
    private static final String BIG = "uid=u0000," + UNIT;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("limits.max-persistent-searches", 10).set("limits.persistent-search-queue", QUEUE))
            .importing(Ldif.bulkUnit(UNIT, 1, i -> "small"));

    @Test
    void aListenerThatStopsReadingIsDisconnectedWhileOthersGoOn() throws Exception {
        try (Socket stalled = stalledListener();
                LDAPConnection admin = larch.server().admin();
                LDAPConnection reader = larch.server().anonymous()) {
            Notifications good = Notifications.start(
                    reader,
                    UNIT,
                    SearchScope.SUB,
                    "(uid=*)",
                    EnumSet.allOf(PersistentSearchChangeType.class),
                    true,
                    "description");
            // Refused inside the writer (anonymous may not write): answered after the registration.
            assertThrows(LDAPException.class, () -> reader.modify(UNIT, describe(-1)));
            long start = System.nanoTime();
            for (int i = 0; i < CHANGES; i++) {
                admin.modify(BIG, describe(i));
            }
            long writeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            for (int i = 0; i < CHANGES; i++) {
                String description = good.next().getAttributeValue("description");
                assertTrue(description.startsWith(i + "x"), "notification " + i + " out of order");
            }
            assertTrue(writeMillis < 60_000, "writes took " + writeMillis + " ms");
            assertTrue(closedByServer(stalled), "the stalled listener's connection is still open");
        }
    }

    private static Modification describe(int i) {
        return new Modification(ModificationType.REPLACE, "description", i + "x".repeat(48_000));
    }

    /**
     * A raw connection that starts a persistent search, reads until the server answered a request
     * queued behind the registration (so it is registered), then reads nothing more.
     */
    private static Socket stalledListener() throws Exception {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(4096);
        socket.connect(new InetSocketAddress("127.0.0.1", larch.server().port()), 5000);
        socket.setSoTimeout(10_000);
        OutputStream out = socket.getOutputStream();
        SearchRequestProtocolOp search = new SearchRequestProtocolOp(
                UNIT,
                SearchScope.SUB,
                DereferencePolicy.NEVER,
                0,
                0,
                false,
                Filter.create("(objectClass=*)"),
                List.of());
        Control psearch = new PersistentSearchRequestControl(PersistentSearchChangeType.allChangeTypes(), true, true);
        out.write(new LDAPMessage(1, search, List.of(psearch)).encode().encode());
        // Refused inside the writer (anonymous may not write), so answered after the registration.
        ModifyRequestProtocolOp modify = new ModifyRequestProtocolOp(UNIT, List.of(describe(-1)));
        out.write(new LDAPMessage(2, modify).encode().encode());
        out.flush();
        ASN1StreamReader reader = new ASN1StreamReader(socket.getInputStream());
        LDAPMessage answer = LDAPMessage.readFrom(reader, true);
        assertEquals(2, answer.getMessageID(), "the modify's answer comes first: " + answer);
        return socket;
    }

    /** Reads (discarding) until the server closed the connection; false if it stays open 30 s. */
    private static boolean closedByServer(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[65536];
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try {
                if (in.read(buffer) < 0) {
                    return true;
                }
            } catch (SocketTimeoutException e) {
                return false; // open, and nothing more to read
            } catch (SocketException e) {
                return true; // reset by the server
            }
        }
        fail("still reading after 30 s");
        return false;
    }
}
