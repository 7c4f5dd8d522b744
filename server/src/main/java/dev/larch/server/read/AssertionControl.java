package dev.larch.server.read;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

import dev.larch.server.access.AccessControl;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Session;
import dev.larch.server.protocol.WireResultCode;
import dev.larch.server.search.Filter;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.Tri;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.asn1.DecoderException;
import org.apache.directory.api.asn1.ber.Asn1Decoder;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.codec.api.LdapMessageContainer;
import org.apache.directory.api.ldap.model.filter.ExprNode;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.controls.OpaqueControl;

/**
 * The assertion control (RFC 4528): the operation goes ahead only if its filter is true for the
 * target entry (the base of a search, the entry compared, modified, renamed or deleted), judged in the
 * operation's own transaction as the client may judge it (attributes it may not search make the
 * filter Undefined, so the control is no oracle); otherwise assertionFailed (122) and nothing changes.
 *
 * <p>The Apache API ships no codec for it: the value, a BER Filter, is decoded by wrapping it in a
 * SearchRequest for the API's own decoder; a value that is not a filter is protocolError.
 *
 * <p>Thread-safe.
 */
public final class AssertionControl {
    public static final String OID = "1.3.6.1.1.12";

    private final FilterCompiler filters;
    private final AccessControl access;

    public AssertionControl(FilterCompiler filters, AccessControl access) {
        this.filters = filters;
        this.access = access;
    }

    /**
     * Refuses the operation unless {@code request}'s assertion holds for {@code target}; does nothing
     * when it carries none.
     *
     * @throws ResultCodeException assertionFailed (122), or protocolError for a malformed value
     */
    public void require(Request request, Session session, ReadTxn txn, StoredEntry target) {
        Control control = request.getControl(OID);
        if (control == null) {
            return;
        }
        ExprNode node = filterOf(control);
        Filter filter = filters.compile(node);
        if (access.forSearch(session, txn, node, filters).evaluate(target, filter) != Tri.TRUE) {
            throw ResultCodeException.withWireCode(
                    WireResultCode.ASSERTION_FAILED, "the assertion control's filter is not true for the entry");
        }
    }

    private static ExprNode filterOf(Control control) {
        byte[] value = control instanceof OpaqueControl opaque ? opaque.getEncodedValue() : null;
        if (value == null || value.length == 0) {
            throw malformed();
        }
        ByteArrayOutputStream search = new ByteArrayOutputStream(value.length + 24);
        // baseObject "", scope base, derefAliases never, sizeLimit 0, timeLimit 0, typesOnly false
        search.writeBytes(new byte[] {
            0x04, 0x00, 0x0A, 0x01, 0x00, 0x0A, 0x01, 0x00, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00, 0x01, 0x01, 0x00
        });
        search.writeBytes(value);
        search.writeBytes(new byte[] {0x30, 0x00}); // attributes
        ByteArrayOutputStream op = new ByteArrayOutputStream();
        op.writeBytes(new byte[] {0x02, 0x01, 0x01}); // messageID 1
        writeElement(op, 0x63, search.toByteArray());
        ByteArrayOutputStream pdu = new ByteArrayOutputStream();
        writeElement(pdu, 0x30, op.toByteArray());
        LdapMessageContainer<Message> container = new LdapMessageContainer<>(LdapApiServiceFactory.getSingleton());
        try {
            ByteBuffer buffer = ByteBuffer.wrap(pdu.toByteArray());
            Asn1Decoder.decode(buffer, container);
            if (container.getMessage() instanceof SearchRequest decoded && !buffer.hasRemaining()) {
                return decoded.getFilter();
            }
        } catch (DecoderException | RuntimeException e) {
            // below
        }
        throw malformed();
    }

    private static void writeElement(ByteArrayOutputStream out, int tag, byte[] value) {
        out.write(tag);
        int length = value.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int octets = length > 0xFFFF ? 3 : length > 0xFF ? 2 : 1;
            out.write(0x80 | octets);
            for (int i = octets - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(value);
    }

    private static ResultCodeException malformed() {
        return new ResultCodeException(ResultCodeEnum.PROTOCOL_ERROR, "the assertion control's value is not a filter");
    }
}
