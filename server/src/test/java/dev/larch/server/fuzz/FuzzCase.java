package dev.larch.server.fuzz;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One fuzz input: the byte stream a client sends on one connection, split into the reads the server
 * sees, and the reads during which the connection does not accept output (a client that stops
 * reading its answers).
 *
 * <p>A case is a pure function of {@code (seed, index)} and the corpus: {@link #generate} with the same
 * pair yields the same bytes, which is how a failure is reproduced.
 *
 * @param reads           the stream, in the fragments it arrives in; never empty
 * @param unwritableFrom  index of the first read after which the channel stops accepting output, or -1
 * @param unwritableUntil index of the read before which it accepts output again (exclusive)
 */
record FuzzCase(long seed, long index, List<byte[]> reads, int unwritableFrom, int unwritableUntil) {

    /** Largest huge DN generated: beyond the anonymous PDU limit (256 KiB), below the bound one (8 MiB). */
    private static final int MAX_HUGE_DN = 300 * 1024;

    static FuzzCase generate(long seed, long index, PduCorpus corpus) {
        SplittableRandom random = new SplittableRandom(mix(seed, index));
        List<byte[]> pdus = new ArrayList<>();
        if (random.nextInt(4) == 0) {
            pdus.add(corpus.adminBind(1 + random.nextInt(5))); // writes need the administrator
        }
        int count = 1 + random.nextInt(6);
        for (int i = 0; i < count; i++) {
            pdus.add(onePdu(random, corpus));
        }
        byte[] stream = Ber.concat(pdus.toArray(byte[][]::new));
        List<byte[]> reads = fragment(stream, random);
        int from = -1;
        int until = -1;
        if (random.nextInt(5) == 0) {
            from = random.nextInt(reads.size());
            until = from + 1 + random.nextInt(reads.size() - from);
        }
        return new FuzzCase(seed, index, List.copyOf(reads), from, until);
    }

    private static byte[] onePdu(SplittableRandom random, PduCorpus corpus) {
        List<byte[]> seeds = corpus.seeds();
        int id = random.nextInt(8) == 0 ? random.nextInt() : 1 + random.nextInt(12);
        byte[] pdu = switch (random.nextInt(20)) {
            case 0 -> PduCorpus.deepFilterSearch(id, depth(random), random);
            case 1 -> PduCorpus.wideFilterSearch(id, width(random), random);
            case 2 -> corpus.hugeDnRequest(id, 1 + random.nextInt(random.nextBoolean() ? 4096 : MAX_HUGE_DN), random);
            case 3 -> PduCorpus.malformedOuterLength(PduCorpus.withMessageId(pick(seeds, random), id), random);
            default -> PduCorpus.withMessageId(pick(seeds, random), id);
        };
        if (random.nextInt(6) == 0) {
            pdu = PduCorpus.withControls(pdu, corpus.randomControls(random));
        }
        if (random.nextInt(3) != 0) {
            pdu = PduMutator.mutate(pdu, pick(seeds, random), 4, random);
        }
        return pdu;
    }

    /** Mostly shallow, sometimes right at or past the depth limit (100 by default, at most 1,000). */
    private static int depth(SplittableRandom random) {
        return switch (random.nextInt(4)) {
            case 0 -> 95 + random.nextInt(10);
            case 1 -> 990 + random.nextInt(20);
            default -> 1 + random.nextInt(60);
        };
    }

    private static int width(SplittableRandom random) {
        return random.nextInt(8) == 0 ? 10_000 + random.nextInt(20_000) : 2 + random.nextInt(500);
    }

    /** One read, single bytes, or random fragments: framing must not depend on how the bytes arrive. */
    private static List<byte[]> fragment(byte[] stream, SplittableRandom random) {
        List<byte[]> reads = new ArrayList<>();
        int mode = random.nextInt(4);
        if (mode < 2 || stream.length == 0) {
            reads.add(stream);
            return reads;
        }
        int maxChunk = mode == 2 && stream.length <= 512 ? 1 : Math.max(1, stream.length / 4);
        for (int at = 0; at < stream.length; ) {
            int n = Math.min(stream.length - at, 1 + random.nextInt(maxChunk));
            byte[] chunk = new byte[n];
            System.arraycopy(stream, at, chunk, 0, n);
            reads.add(chunk);
            at += n;
        }
        return reads;
    }

    private static byte[] pick(List<byte[]> list, SplittableRandom random) {
        return list.get(random.nextInt(list.size()));
    }

    /** A well-spread 64-bit seed of the pair, so neighbouring indexes share no random sequence. */
    static long mix(long seed, long index) {
        long z = seed * 0x9E3779B97F4A7C15L + index;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    int totalBytes() {
        return reads.stream().mapToInt(r -> r.length).sum();
    }

    /** How to see and replay this case: seed, index, reads as hex (long ones shortened), the command. */
    String describe() {
        StringBuilder out = new StringBuilder();
        out.append("seed=")
                .append(seed)
                .append(" case=")
                .append(index)
                .append(" bytes=")
                .append(totalBytes());
        if (unwritableFrom >= 0) {
            out.append(" unwritable reads [")
                    .append(unwritableFrom)
                    .append(", ")
                    .append(unwritableUntil)
                    .append(')');
        }
        out.append("\nreplay: ./larch fuzz --seed ")
                .append(seed)
                .append(" --case ")
                .append(index);
        for (int i = 0; i < reads.size(); i++) {
            byte[] read = reads.get(i);
            out.append("\nread ").append(i).append(" (").append(read.length).append(" bytes): ");
            int shown = Math.min(read.length, 64 * 1024);
            out.append(HexFormat.of().formatHex(read, 0, shown));
            if (shown < read.length) {
                out.append("... (").append(read.length - shown).append(" more)");
            }
        }
        return out.toString();
    }
}
