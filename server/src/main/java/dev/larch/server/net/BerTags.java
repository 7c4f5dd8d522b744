package dev.larch.server.net;

/**
 * The identifier octets of the BER elements the server reads and writes straight from its buffers
 * (X.690 §8.1.2; RFC 4511 §4 and its ASN.1 module in Appendix B), in one place so that the frame
 * decoder, the request readers and the response writers cannot disagree on one.
 */
final class BerTags {
    private BerTags() {}

    // Universal, primitive or constructed as X.690 requires.
    static final int BOOLEAN = 0x01;
    static final int INTEGER = 0x02;
    static final int OCTET_STRING = 0x04;
    static final int ENUMERATED = 0x0A;
    static final int SEQUENCE = 0x30;
    static final int SET = 0x31;

    // protocolOp, [APPLICATION n].
    static final int UNBIND_REQUEST = 0x42;
    static final int ABANDON_REQUEST = 0x50;
    static final int SEARCH_REQUEST = 0x63;
    static final int SEARCH_RESULT_ENTRY = 0x64;
    static final int SEARCH_RESULT_DONE = 0x65;
    static final int SEARCH_RESULT_REFERENCE = 0x73;
    static final int EXTENDED_REQUEST = 0x77;
    static final int INTERMEDIATE_RESPONSE = 0x79;

    // ExtendedRequest requestName [0] and ExtendedResponse responseValue [11].
    static final int EXTENDED_REQUEST_NAME = 0x80;
    static final int EXTENDED_RESPONSE_VALUE = 0x8B;

    // Filter CHOICE, [CONTEXT n]: constructed, but for present (an attribute description).
    static final int FILTER_AND = 0xA0;
    static final int FILTER_OR = 0xA1;
    static final int FILTER_NOT = 0xA2;
    static final int FILTER_EQUALITY_MATCH = 0xA3;
    static final int FILTER_SUBSTRINGS = 0xA4;
    static final int FILTER_GREATER_OR_EQUAL = 0xA5;
    static final int FILTER_LESS_OR_EQUAL = 0xA6;
    static final int FILTER_PRESENT = 0x87;
    static final int FILTER_APPROX_MATCH = 0xA8;

    // SubstringFilter substrings CHOICE.
    static final int SUBSTRING_INITIAL = 0x80;
    static final int SUBSTRING_ANY = 0x81;
    static final int SUBSTRING_FINAL = 0x82;
}
