package dev.larch.server.write;

import java.util.List;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.UpdatableLDAPRequest;
import com.unboundid.ldap.sdk.controls.PostReadRequestControl;
import com.unboundid.ldap.sdk.controls.PostReadResponseControl;
import com.unboundid.ldap.sdk.experimental.DraftZeilengaLDAPNoOp12RequestControl;
import dev.larch.server.commit.NoOperation;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The no-op control: updates are checked in full, answered noOperation (16654) and never committed. */
class NoOperationIT {
    static final String PEOPLE = "ou=people," + TestServer.SUFFIX;
    static final String DN = "uid=steady," + PEOPLE;

    private static final ListAppender<ILoggingEvent> ACCESS = new ListAppender<>();

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(TestServer::withAccessLog)
            .adding("dn: " + DN + "\nobjectClass: inetOrgPerson\nuid: steady\ncn: Steady\nsn: Same\n");

    @BeforeAll
    static void captureAccessLog() {
        ACCESS.start();
        ((Logger) LoggerFactory.getLogger("larch.access")).addAppender(ACCESS);
    }

    @AfterAll
    static void releaseAccessLog() {
        ((Logger) LoggerFactory.getLogger("larch.access")).detachAppender(ACCESS);
    }

    /** The result of {@code request}, whether the SDK returns it (it counts noOperation as success) or throws it. */
    private static LDAPResult resultOf(LDAPConnection c, UpdatableLDAPRequest request) {
        try {
            return switch (request) {
                case AddRequest r -> c.add(r);
                case DeleteRequest r -> c.delete(r);
                case ModifyRequest r -> c.modify(r);
                case ModifyDNRequest r -> c.modifyDN(r);
                default -> throw new AssertionError(request);
            };
        } catch (LDAPException e) {
            return e.toLDAPResult();
        }
    }

    @Test
    void eachUpdateThatWouldSucceedIsAnsweredNoOperationAndChangesNothing() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            AddRequest add = new AddRequest(
                    "dn: uid=never," + PEOPLE, "objectClass: inetOrgPerson", "uid: never", "cn: N", "sn: N");
            ModifyRequest modify = new ModifyRequest(DN, new Modification(ModificationType.REPLACE, "sn", "Changed"));
            ModifyDNRequest rename = new ModifyDNRequest(DN, "uid=moved", true);
            DeleteRequest delete = new DeleteRequest(DN);
            for (var request : new UpdatableLDAPRequest[] {add, modify, rename, delete}) {
                request.addControl(new DraftZeilengaLDAPNoOp12RequestControl());
                LDAPResult result = resultOf(c, request);
                assertEquals(ResultCode.NO_OPERATION, result.getResultCode(), request.toString());
                assertEquals(16654, result.getResultCode().intValue());
            }
            // The access log shows the code the client saw, not the placeholder the encoder overwrote.
            Awaitility.await()
                    .until(() -> List.copyOf(ACCESS.list).stream()
                            .anyMatch(e -> e.getFormattedMessage().contains("DELETE")
                                    && e.getFormattedMessage().contains("result=16654")));
            assertNull(c.getEntry("uid=never," + PEOPLE));
            assertNull(c.getEntry("uid=moved," + PEOPLE));
            assertEquals("Same", c.getEntry(DN, "sn").getAttributeValue("sn"));
        }
    }

    @Test
    void anUpdateThatWouldFailGetsItsOwnError() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            AddRequest exists =
                    new AddRequest("dn: " + DN, "objectClass: inetOrgPerson", "uid: steady", "cn: Steady", "sn: Same");
            exists.addControl(new DraftZeilengaLDAPNoOp12RequestControl());
            assertEquals(ResultCode.ENTRY_ALREADY_EXISTS, resultOf(c, exists).getResultCode());
            ModifyRequest schema =
                    new ModifyRequest(DN, new Modification(ModificationType.DELETE, "sn")); // sn is required
            schema.addControl(new DraftZeilengaLDAPNoOp12RequestControl());
            assertEquals(ResultCode.OBJECT_CLASS_VIOLATION, resultOf(c, schema).getResultCode());
            DeleteRequest parent = new DeleteRequest(PEOPLE);
            parent.addControl(new DraftZeilengaLDAPNoOp12RequestControl());
            assertEquals(ResultCode.NOT_ALLOWED_ON_NONLEAF, resultOf(c, parent).getResultCode());
        }
        try (LDAPConnection anonymous = larch.server().anonymous()) {
            ModifyRequest denied = new ModifyRequest(DN, new Modification(ModificationType.REPLACE, "sn", "X"));
            denied.addControl(new DraftZeilengaLDAPNoOp12RequestControl());
            assertEquals(
                    ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
                    resultOf(anonymous, denied).getResultCode());
        }
    }

    @Test
    void aPostReadShowsTheEntryTheUpdateWouldHaveMade() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            ModifyRequest modify = new ModifyRequest(DN, new Modification(ModificationType.REPLACE, "sn", "Preview"));
            modify.addControl(new DraftZeilengaLDAPNoOp12RequestControl());
            modify.addControl(new PostReadRequestControl(true, "sn"));
            LDAPResult result = resultOf(c, modify);
            assertEquals(ResultCode.NO_OPERATION, result.getResultCode());
            PostReadResponseControl preview = PostReadResponseControl.get(result);
            assertNotNull(preview);
            assertEquals("Preview", preview.getEntry().getAttributeValue("sn"));
            assertEquals("Same", c.getEntry(DN, "sn").getAttributeValue("sn"));
        }
    }

    @Test
    void aNoOpControlWithAValueIsAProtocolError() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            ModifyRequest modify = new ModifyRequest(DN, new Modification(ModificationType.REPLACE, "sn", "Changed"));
            modify.addControl(new Control(NoOperation.OID, true, new ASN1OctetString("x")));
            assertEquals(ResultCode.PROTOCOL_ERROR, resultOf(c, modify).getResultCode());
            assertEquals("Same", c.getEntry(DN, "sn").getAttributeValue("sn"));
        }
    }
}
