package dev.larch.server.net;

import dev.larch.server.protocol.WireResultCode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import org.apache.directory.api.ldap.model.message.LdapResult;
import org.apache.directory.api.ldap.model.message.SearchResultDone;

/**
 * Writes a plain SearchResultDone (no controls, no referral, no matched DN, a result code of one
 * octet) straight into one buffer sized to fit (RFC 4511 sections 4.1.9 and 4.5.2):
 *
 * <pre>
 * SEQUENCE { messageID INTEGER, [APPLICATION 5] { resultCode ENUMERATED,
 *   matchedDN OCTET STRING (empty), diagnosticMessage OCTET STRING } }
 * </pre>
 *
 * The API's encoder writes the same bytes through its reversed buffer, then a heap buffer and an
 * array copied out of it, about 100 bytes for every search's last message. {@code
 * PlainDoneWriterTest} holds the two to the same bytes.
 *
 * <p>Stateless and thread-safe.
 */
final class PlainDoneWriter {
    private PlainDoneWriter() {}

    /** Whether {@link #write} writes {@code done} as the API's encoder would. */
    static boolean applies(SearchResultDone done) {
        LdapResult result = done.getLdapResult();
        int code = result.getResultCode().getResultCode();
        return done.getControls().isEmpty()
                && result.getReferral() == null
                && (result.getMatchedDn() == null || result.getMatchedDn().isEmpty())
                && code >= 0
                && code < 0x80
                && WireResultCode.of(done) == 0;
    }

    /** The encoded message in a new buffer from {@code alloc}, which the caller releases. */
    static ByteBuf write(ByteBufAllocator alloc, SearchResultDone done) {
        LdapResult result = done.getLdapResult();
        String diagnostic = result.getDiagnosticMessage() == null ? "" : result.getDiagnosticMessage();
        int diagnosticLength = ByteBufUtil.utf8Bytes(diagnostic);
        int operationLength = 3 + 2 + BerOut.element(diagnosticLength);
        int id = done.getMessageId();
        int idLength = BerOut.integerLength(id);
        int messageLength = BerOut.element(idLength) + BerOut.element(operationLength);

        ByteBuf out = alloc.ioBuffer(BerOut.element(messageLength));
        BerOut.header(out, BerTags.SEQUENCE, messageLength);
        BerOut.header(out, BerTags.INTEGER, idLength);
        BerOut.integer(out, id);
        BerOut.header(out, BerTags.SEARCH_RESULT_DONE, operationLength);
        BerOut.header(out, BerTags.ENUMERATED, 1);
        out.writeByte(result.getResultCode().getResultCode());
        BerOut.header(out, BerTags.OCTET_STRING, 0);
        BerOut.header(out, BerTags.OCTET_STRING, diagnosticLength);
        ByteBufUtil.writeUtf8(out, diagnostic);
        return out;
    }
}
