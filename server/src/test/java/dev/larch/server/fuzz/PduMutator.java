package dev.larch.server.fuzz;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Damages a PDU the way broken and hostile clients do: bit and byte flips, inserted, deleted and
 * duplicated bytes, corrupted BER lengths, elements spliced in from another PDU, truncation. Every
 * choice comes from the random source it is given, so the same source yields the same damage.
 * Stateless.
 */
final class PduMutator {
    /** Octets that matter to a BER reader: length forms, tag boundaries, sign bits. */
    private static final byte[] INTERESTING = {
        0x00,
        0x01,
        0x02,
        0x04,
        0x30,
        0x3f,
        0x60,
        0x63,
        0x7f,
        (byte) 0x80,
        (byte) 0x81,
        (byte) 0x82,
        (byte) 0x84,
        (byte) 0x85,
        (byte) 0xa0,
        (byte) 0xff
    };

    private PduMutator() {}

    /** One to {@code maxSteps} random mutations of {@code pdu}; {@code donor} supplies spliced elements. */
    static byte[] mutate(byte[] pdu, byte[] donor, int maxSteps, SplittableRandom random) {
        byte[] out = pdu;
        int steps = 1 + random.nextInt(maxSteps);
        for (int i = 0; i < steps; i++) {
            out = once(out, donor, random);
        }
        return out;
    }

    private static byte[] once(byte[] b, byte[] donor, SplittableRandom random) {
        if (b.length == 0) {
            return new byte[] {INTERESTING[random.nextInt(INTERESTING.length)]};
        }
        int at = random.nextInt(b.length);
        return switch (random.nextInt(9)) {
            case 0 -> {
                byte[] out = b.clone();
                out[at] ^= (byte) (1 << random.nextInt(8));
                yield out;
            }
            case 1 -> {
                byte[] out = b.clone();
                out[at] = random.nextBoolean()
                        ? INTERESTING[random.nextInt(INTERESTING.length)]
                        : (byte) random.nextInt();
                yield out;
            }
            case 2 -> {
                byte[] inserted = new byte[1 + random.nextInt(8)];
                random.nextBytes(inserted);
                yield Ber.concat(Arrays.copyOfRange(b, 0, at), inserted, Arrays.copyOfRange(b, at, b.length));
            }
            case 3 -> {
                int end = Math.min(b.length, at + 1 + random.nextInt(16));
                yield Ber.concat(Arrays.copyOfRange(b, 0, at), Arrays.copyOfRange(b, end, b.length));
            }
            case 4 -> {
                int end = Math.min(b.length, at + 1 + random.nextInt(32));
                yield Ber.concat(Arrays.copyOfRange(b, 0, end), Arrays.copyOfRange(b, at, b.length));
            }
            case 5, 6 -> corruptLength(b, random);
            case 7 -> splice(b, donor, random);
            default -> Arrays.copyOfRange(b, 0, at);
        };
    }

    /** Rewrites the length of one element: off by a little, zero, indefinite, long form, huge. */
    static byte[] corruptLength(byte[] b, SplittableRandom random) {
        List<BerElements.Element> elements = BerElements.of(b);
        if (elements.isEmpty()) {
            return b;
        }
        BerElements.Element e = elements.get(random.nextInt(elements.size()));
        int length = e.end() - e.valueAt();
        byte[] replacement = switch (random.nextInt(7)) {
            case 0 -> Ber.length(length + 1 + random.nextInt(4));
            case 1 -> Ber.length(Math.max(0, length - 1 - random.nextInt(4)));
            case 2 -> new byte[] {0};
            case 3 -> new byte[] {(byte) 0x80};
            case 4 -> Ber.longFormLength(length, 1 + random.nextInt(3));
            case 5 -> Ber.longFormLength(0x7fff_ff00L + random.nextInt(256), 0);
            default -> new byte[] {(byte) (0x81 + random.nextInt(0x7f))};
        };
        return Ber.concat(
                Arrays.copyOfRange(b, 0, e.lengthAt()), replacement, Arrays.copyOfRange(b, e.valueAt(), b.length));
    }

    /** Replaces one element of {@code b} by one of {@code donor}, leaving enclosing lengths as they were. */
    static byte[] splice(byte[] b, byte[] donor, SplittableRandom random) {
        List<BerElements.Element> mine = BerElements.of(b);
        List<BerElements.Element> theirs = BerElements.of(donor);
        if (mine.isEmpty() || theirs.isEmpty()) {
            return b;
        }
        BerElements.Element target = mine.get(random.nextInt(mine.size()));
        BerElements.Element source = theirs.get(random.nextInt(theirs.size()));
        byte[] spliced = Ber.concat(
                Arrays.copyOfRange(b, 0, target.start()),
                Arrays.copyOfRange(donor, source.start(), source.end()),
                Arrays.copyOfRange(b, target.end(), b.length));
        // Half the time repair the enclosing lengths, so the damage sits deeper than the envelope.
        return random.nextBoolean() ? spliced : refitOuter(spliced);
    }

    /** Rewrites the outermost length to cover the rest of the bytes. */
    private static byte[] refitOuter(byte[] b) {
        List<BerElements.Element> elements = BerElements.of(b);
        if (b.length < 2 || (b[1] & 0xff) > 0x84) {
            return b;
        }
        int headerEnd = (b[1] & 0x80) == 0 ? 2 : 2 + (b[1] & 0x7f);
        if (headerEnd > b.length || (!elements.isEmpty() && elements.get(0).end() == b.length)) {
            return b;
        }
        byte[] value = Arrays.copyOfRange(b, headerEnd, b.length);
        return Ber.tlv(b[0] & 0xff, value);
    }
}
