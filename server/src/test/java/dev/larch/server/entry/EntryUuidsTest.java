package dev.larch.server.entry;

import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class EntryUuidsTest {

    @Test
    void textAndBytesRoundTripInLowerCase() {
        byte[] bytes = EntryUuids.toBytes("0A1B2C3D-4e5f-6071-8293-a4b5c6d7e8f9");

        assertArrayEquals(
                new byte[] {
                    0x0a,
                    0x1b,
                    0x2c,
                    0x3d,
                    0x4e,
                    0x5f,
                    0x60,
                    0x71,
                    (byte) 0x82,
                    (byte) 0x93,
                    (byte) 0xa4,
                    (byte) 0xb5,
                    (byte) 0xc6,
                    (byte) 0xd7,
                    (byte) 0xe8,
                    (byte) 0xf9
                },
                bytes);
        assertEquals("0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9", EntryUuids.toText(bytes));
    }

    @Test
    void aJavaUuidHasTheSameBytes() {
        UUID uuid = UUID.randomUUID();

        assertEquals(uuid, EntryUuids.toUuid(EntryUuids.toBytes(uuid)));
        assertEquals(uuid.toString(), EntryUuids.toText(EntryUuids.toBytes(uuid)));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "0a1b2c3d4e5f60718293a4b5c6d7e8f9",
                "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f",
                "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f90",
                "0a1b2c3d-4e5f-6071-8293+a4b5c6d7e8f9",
                "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8fg",
                "0a1b2c3-d4e5f-6071-8293-a4b5c6d7e8f9",
                "０a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9",
            })
    void anythingButEightFourFourFourTwelveHexDigitsIsRefused(String text) {
        assertThrows(IllegalArgumentException.class, () -> EntryUuids.toBytes(text));
    }

    @Test
    void bytesOfAnotherLengthAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> EntryUuids.toText(new byte[15]));
        assertThrows(IllegalArgumentException.class, () -> EntryUuids.toText(new byte[17]));
    }
}
