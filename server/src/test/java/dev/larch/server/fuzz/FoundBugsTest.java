package dev.larch.server.fuzz;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Regressions for what the fuzzer found, each the smallest PDU that showed it, run through the same
 * harness and oracles (an ERROR log, a connection closed without a notice or an unanswered request fail).
 */
class FoundBugsTest {

    @Test
    void errorAnswersToExtendedRequestsWithACodecFactoryAreEncoded(@TempDir Path dir) {
        PduCorpus corpus = new PduCorpus();
        try (FuzzHarness harness = new FuzzHarness(dir, corpus)) {
            // Cancel (RFC 3909) of message 2: refused with protocolError, as a CancelResponse.
            byte[] cancel = pdu(
                    5,
                    Ber.tlv(
                            0x77,
                            Ber.tlv(0x80, ascii(PduCorpus.CANCEL)),
                            Ber.tlv(0x81, Ber.tlv(Ber.SEQUENCE, Ber.integer(2)))));
            assertEquals(List.of(), harness.run(single(cancel)));
            byte[] passwordModify = pdu(
                    8,
                    Ber.tlv(
                            0x77,
                            Ber.tlv(0x80, ascii(PduCorpus.PASSWORD_MODIFY)),
                            Ber.tlv(0x81, Ber.tlv(Ber.SEQUENCE, Ber.tlv(0x82, ascii("new"))))));
            assertEquals(List.of(), harness.run(single(passwordModify)));
            byte[] startTls = pdu(6, Ber.tlv(0x77, Ber.tlv(0x80, ascii(PduCorpus.START_TLS))));
            assertEquals(List.of(), harness.run(single(startTls)));
            // Who Am I with an unknown critical control: unavailableCriticalExtension, as a WhoAmIResponse.
            byte[] whoAmI = PduCorpus.withControls(
                    pdu(7, Ber.tlv(0x77, Ber.tlv(0x80, ascii(PduCorpus.WHO_AM_I)))),
                    Ber.tlv(0xa0, Ber.tlv(Ber.SEQUENCE, Ber.octets("1.2.3.4.5.6.7"), Ber.bool(true))));
            assertEquals(List.of(), harness.run(single(whoAmI)));
        }
    }

    private static byte[] pdu(int messageId, byte[] protocolOp) {
        return Ber.tlv(Ber.SEQUENCE, Ber.integer(messageId), protocolOp);
    }

    private static FuzzCase single(byte[] pdu) {
        return new FuzzCase(0, 0, List.of(pdu), -1, -1);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
