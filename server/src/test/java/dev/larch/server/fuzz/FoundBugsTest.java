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

    /** "\u00e0x": not ASCII, so no attribute type; once looked up, Apache's lowercasing threw. */
    private static final byte[] NON_ASCII_NAME = "\u00e0x".getBytes(StandardCharsets.UTF_8);
    /** An octet that is not UTF-8: decoded as U+FFFD, beyond the 256-entry table the schema lookup used. */
    private static final byte[] UNDECODABLE_NAME = {(byte) 0xe0, 0x6f, 0x53};
    /** The server-side sort request control (RFC 2891). */
    private static final String SORT_REQUEST = "1.2.840.113556.1.4.473";

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

    @Test
    void attributeNamesThatAreNotAsciiNameNoAttribute(@TempDir Path dir) {
        PduCorpus corpus = new PduCorpus();
        try (FuzzHarness harness = new FuzzHarness(dir, corpus)) {
            for (byte[] name : List.of(NON_ASCII_NAME, UNDECODABLE_NAME)) {
                byte[] inFilter =
                        search(8, Ber.tlv(0xa3, Ber.tlv(Ber.OCTET_STRING, name), Ber.octets("1")), new byte[0]);
                assertEquals(List.of(), harness.run(single(inFilter)));
                byte[] inAttributes = search(9, Ber.tlv(0x87, ascii("cn")), Ber.tlv(Ber.OCTET_STRING, name));
                assertEquals(List.of(), harness.run(single(inAttributes)));
                byte[] inCompare = pdu(
                        10,
                        Ber.tlv(
                                0x6e,
                                Ber.octets(PduCorpus.USER_DN),
                                Ber.tlv(Ber.SEQUENCE, Ber.tlv(Ber.OCTET_STRING, name), Ber.octets("x"))));
                assertEquals(List.of(), harness.run(single(inCompare)));
            }
            assertEquals(List.of(), harness.probe());
        }
    }

    /** Case 565,265 of seed 20261123: an add whose objectClass value holds U+FFFD reached the OID normalizer. */
    @Test
    void anObjectClassValueThatIsNotLatin1IsAnInvalidSyntax(@TempDir Path dir) {
        PduCorpus corpus = new PduCorpus();
        try (FuzzHarness harness = new FuzzHarness(dir, corpus)) {
            assertEquals(List.of(), harness.run(FuzzCase.generate(20261123L, 565_265L, corpus)));
        }
    }

    /**
     * Case 31,491 of seed 11: a sort control (RFC 2891) whose attribute description holds U+FFFD went
     * to the schema manager unscreened; so did a sort key's matching rule ID.
     */
    @Test
    void sortKeysThatAreNotAsciiNameNoAttributeAndNoRule(@TempDir Path dir) {
        PduCorpus corpus = new PduCorpus();
        try (FuzzHarness harness = new FuzzHarness(dir, corpus)) {
            assertEquals(List.of(), harness.run(FuzzCase.generate(11L, 31_491L, corpus)));
            for (byte[] name : List.of(NON_ASCII_NAME, UNDECODABLE_NAME)) {
                byte[] byAttribute = Ber.tlv(Ber.SEQUENCE, Ber.tlv(Ber.OCTET_STRING, name));
                byte[] byRule = Ber.tlv(Ber.SEQUENCE, Ber.octets("cn"), Ber.tlv(0x80, name));
                for (byte[] key : List.of(byAttribute, byRule)) {
                    byte[] sort = Ber.tlv(
                            Ber.SEQUENCE,
                            Ber.octets(SORT_REQUEST),
                            Ber.bool(true),
                            Ber.tlv(Ber.OCTET_STRING, Ber.tlv(Ber.SEQUENCE, key)));
                    byte[] sorted = PduCorpus.withControls(
                            search(11, Ber.tlv(0x87, ascii("cn")), new byte[0]), Ber.tlv(0xa0, sort));
                    assertEquals(List.of(), harness.run(single(sorted)));
                }
            }
            assertEquals(List.of(), harness.probe());
        }
    }

    private static byte[] search(int messageId, byte[] filter, byte[] attribute) {
        return pdu(
                messageId,
                Ber.tlv(
                        0x63,
                        Ber.octets(PduCorpus.SUFFIX),
                        Ber.tlv(Ber.ENUMERATED, new byte[] {2}),
                        Ber.tlv(Ber.ENUMERATED, new byte[] {0}),
                        Ber.integer(0),
                        Ber.integer(0),
                        Ber.bool(false),
                        filter,
                        Ber.tlv(Ber.SEQUENCE, attribute)));
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
