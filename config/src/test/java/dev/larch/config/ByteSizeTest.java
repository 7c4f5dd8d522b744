package dev.larch.config;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ByteSizeTest {
    @ParameterizedTest
    @CsvSource({
        "4096, 4096",
        "1k, 1024",
        "512m, 536870912",
        "512M, 536870912",
        "64g, 68719476736",
        "64GiB, 68719476736",
        "10MB, 10485760",
        "1t, 1099511627776",
        "' 2k ', 2048",
        "'', -1",
        "k, -1",
        "-1k, -1",
        "1.5g, -1",
        "1x, -1",
        "9223372036854775807k, -1",
        "99999999999999999999, -1"
    })
    void parsesDigitsWithABinaryUnit(String text, long expected) {
        assertEquals(expected, ByteSize.parse(text));
    }

    @ParameterizedTest
    @CsvSource({"0, 0", "1000, 1000", "1024, 1k", "1048576, 1m", "68719476736, 64g", "1536, 1536"})
    void formatsTheShortestExactSpelling(long bytes, String expected) {
        assertEquals(expected, ByteSize.format(bytes));
    }
}
