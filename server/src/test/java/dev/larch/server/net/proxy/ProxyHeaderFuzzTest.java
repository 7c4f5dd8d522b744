package dev.larch.server.net.proxy;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.larch.config.IpNetwork;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Fuzzes the PROXY header path of a balancer's connection: the handlers {@link ProxyProtocol#install}
 * adds, Netty's decoder among them, on an embedded channel. Each case is a function of the seed and its
 * index: a valid v1 or v2 header (TCP over IPv4 and IPv6, LOCAL, UNSPEC, UNIX, UDP, TLVs nested in an
 * SSL TLV), often followed by LDAP bytes, changed by a few mutations (bit flips, bytes set to values
 * the format cares about, the length, command or family fields rewritten, TLVs with lying lengths,
 * ranges cut, repeated or dropped, v1 tokens replaced, the whole cut short) and sent in one read or
 * cut into several, byte by byte at times.
 *
 * <p>The oracle, for every case: nothing but a {@link DecoderException} ever reaches the header handler
 * and nothing at all escapes the pipeline; the continuation runs at most once, and when it does the
 * client is an IP socket address (the header's or the balancer's) and the connection is open; when it
 * does not, the connection is closed at once or, if it still waits for bytes, when the header timeout
 * passes; every buffer the channel allocated is released; no case takes more than 5 seconds.
 *
 * <p>Long runs: {@code -Dfuzz.proxy.seed=S -Dfuzz.proxy.cases=N}; a failure names its seed and index,
 * and {@code -Dfuzz.proxy.case=K} replays one case.
 */
class ProxyHeaderFuzzTest {
    static final long DEFAULT_SEED = 20261128L;
    static final long DEFAULT_CASES = 5_000;
    /** Far above any case (microseconds once warm; the first loads the classes): only a runaway one passes it. */
    static final long MAX_CASE_NANOS = TimeUnit.SECONDS.toNanos(5);

    private static final ProxyProtocol PROXY = new ProxyProtocol(List.of(IpNetwork.parse("192.0.2.0/24")));
    private static final byte[] LDAP = {0x30, 0x05, 0x02, 0x01, 0x05, 0x42, 0x00};
    private static final int[] INTERESTING = {
        0x00, 0x01, 0x0A, 0x0D, 0x11, 0x12, 0x20, 0x21, 0x22, 0x31, 0x7F, 0x80, 0xFF
    };

    private static final List<byte[]> SEEDS = seeds();

    @Test
    void everyMutatedHeaderYieldsAClientOrAClosedConnectionAndLeaksNothing() {
        long seed = Long.getLong("fuzz.proxy.seed", DEFAULT_SEED);
        long cases = Long.getLong("fuzz.proxy.cases", DEFAULT_CASES);
        Long only = Long.getLong("fuzz.proxy.case");
        Logger handlerLog = (Logger) LoggerFactory.getLogger(ProxyHeaderHandler.class);
        Level before = handlerLog.getLevel();
        handlerLog.setLevel(Level.ERROR); // every closed case would log a warning
        Map<String, Long> outcomes = new TreeMap<>();
        try {
            assertTimeoutPreemptively(Duration.ofMinutes(30), () -> {
                for (long i = only != null ? only : 0; i < (only != null ? only + 1 : cases); i++) {
                    String outcome = runCase(seed, i);
                    outcomes.merge(outcome, 1L, Long::sum);
                }
            });
        } finally {
            handlerLog.setLevel(before);
        }
        System.out.println("ProxyHeaderFuzzTest seed=" + seed + " cases=" + cases + " outcomes=" + outcomes);
    }

    /** Runs case {@code index}; returns what became of it, for the summary. */
    private static String runCase(long seed, long index) {
        SplittableRandom random = new SplittableRandom(seed ^ (index * 0x9E3779B97F4A7C15L));
        byte[] input = mutate(random);
        String where = "seed " + seed + ", case " + index + " (-Dfuzz.proxy.seed=" + seed + " -Dfuzz.proxy.case="
                + index + "), input " + HexFormat.of().formatHex(input);
        long start = System.nanoTime();
        ProxyChannel c = new ProxyChannel(PROXY);
        List<Throwable> seen = new ArrayList<>();
        c.channel.pipeline().addAfter("proxy-decode", "recorder", new ChannelInboundHandlerAdapter() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                seen.add(cause);
                ctx.fireExceptionCaught(cause);
            }
        });
        String outcome;
        try {
            for (byte[] part : split(random, input)) {
                if (!c.isOpen()) {
                    break;
                }
                c.read(part);
            }
            boolean waited = false;
            if (c.isOpen() && c.continuations == 0) {
                waited = true;
                c.channel.advanceTimeBy(ProxyProtocol.HEADER_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
                c.channel.runScheduledPendingTasks();
            }
            for (Throwable t : seen) {
                if (!(t instanceof DecoderException)) {
                    throw new AssertionError(where + ": " + t + " reached the header handler", t);
                }
            }
            if (c.continuations > 1) {
                throw new AssertionError(where + ": the continuation ran " + c.continuations + " times");
            }
            if (c.continuations == 1) {
                if (!(c.client instanceof InetSocketAddress inet) || inet.getAddress() == null || !c.isOpen()) {
                    throw new AssertionError(where + ": client " + c.client + ", open " + c.isOpen());
                }
                outcome = inet.equals(ProxyChannel.PEER) ? "balancer" : "client";
            } else if (c.isOpen()) {
                throw new AssertionError(where + ": neither a client nor closed after the header timeout");
            } else {
                outcome = waited ? "closed-late" : "closed";
                if (!seen.isEmpty()) {
                    outcome += "(" + cause(seen.get(0)) + ")";
                }
            }
        } catch (AssertionError e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(where + ": escaped the pipeline: " + t, t);
        }
        if (c.leaked()) {
            throw new AssertionError(where + ": a buffer was not released");
        }
        long nanos = System.nanoTime() - start;
        if (nanos > MAX_CASE_NANOS) {
            throw new AssertionError(where + ": took " + nanos / 1_000_000 + " ms");
        }
        return outcome;
    }

    /** The innermost cause's class, which tells a decoder's own refusal from a wrapped fault. */
    private static String cause(Throwable t) {
        Throwable inner = t;
        for (int depth = 0; depth < 8 && inner.getCause() != null; depth++) {
            inner = inner.getCause();
        }
        return inner.getClass().getSimpleName();
    }

    private static byte[] mutate(SplittableRandom random) {
        byte[] b = SEEDS.get(random.nextInt(SEEDS.size())).clone();
        if (random.nextInt(3) > 0) {
            b = ProxyHeaders.concat(b, LDAP);
        }
        int mutations = random.nextInt(5); // 0: the valid header itself
        for (int m = 0; m < mutations && b.length > 0; m++) {
            int at = random.nextInt(b.length);
            switch (random.nextInt(10)) {
                case 0 -> b[at] ^= (byte) (1 << random.nextInt(8));
                case 1 -> b[at] = (byte) INTERESTING[random.nextInt(INTERESTING.length)];
                case 2 -> b = Arrays.copyOf(b, at); // cut short
                case 3 -> { // the v2 length field
                    if (b.length >= 16) {
                        int length = random.nextBoolean()
                                ? random.nextInt(0x10000)
                                : new int[] {0, 1, 11, 12, 35, 36, 215, 216, 2280, 2281, 0xFFFF}[random.nextInt(11)];
                        b[14] = (byte) (length >> 8);
                        b[15] = (byte) length;
                    }
                }
                case 4 -> { // version and command, family and transport
                    if (b.length >= 14) {
                        b[12 + random.nextInt(2)] = (byte)
                                (random.nextBoolean()
                                        ? random.nextInt(256)
                                        : new int[] {0x20, 0x21, 0x22, 0x11, 0x12, 0x21, 0x22, 0x31, 0x32, 0x00}
                                                [random.nextInt(10)]);
                    }
                }
                case 5 -> { // a TLV whose length may lie, inserted anywhere
                    int length = random.nextInt(8);
                    byte[] tlv = new byte[3 + length];
                    tlv[0] = (byte) new int[] {0x01, 0x02, 0x03, 0x04, 0x05, 0x20, 0x21, 0x22, 0x30, 0xEA, 0xFF}
                            [random.nextInt(11)];
                    int claimed = random.nextBoolean() ? length : random.nextInt(0x10000);
                    tlv[1] = (byte) (claimed >> 8);
                    tlv[2] = (byte) claimed;
                    b = insert(b, at, tlv);
                }
                case 6 -> { // a range repeated
                    int end = at + random.nextInt(Math.min(32, b.length - at) + 1);
                    b = insert(b, end, Arrays.copyOfRange(b, at, end));
                }
                case 7 -> { // a range dropped
                    int end = at + random.nextInt(Math.min(32, b.length - at) + 1);
                    b = ProxyHeaders.concat(Arrays.copyOf(b, at), Arrays.copyOfRange(b, end, b.length));
                }
                case 8 -> b = insert(b, at, V1_TOKENS.get(random.nextInt(V1_TOKENS.size())));
                default -> { // random bytes
                    byte[] noise = new byte[1 + random.nextInt(16)];
                    random.nextBytes(noise);
                    b = insert(b, at, noise);
                }
            }
        }
        return b;
    }

    private static final List<byte[]> V1_TOKENS = List.of(
                    " ",
                    "  ",
                    "\r",
                    "\n",
                    "\r\n",
                    "PROXY",
                    "TCP4",
                    "TCP6",
                    "UDP4",
                    "UNKNOWN",
                    "0",
                    "65535",
                    "65536",
                    "-1",
                    "256.1.1.1",
                    "::",
                    "::ffff:1.2.3.4",
                    "1.2.3",
                    "x".repeat(120))
            .stream()
            .map(s -> s.getBytes(StandardCharsets.US_ASCII))
            .toList();

    private static byte[] insert(byte[] b, int at, byte[] piece) {
        return ProxyHeaders.concat(Arrays.copyOf(b, at), piece, Arrays.copyOfRange(b, at, b.length));
    }

    /** The input as the reads that deliver it: one, a few, or one byte each. */
    private static List<byte[]> split(SplittableRandom random, byte[] input) {
        List<byte[]> parts = new ArrayList<>();
        int kind = random.nextInt(8);
        if (kind == 0) {
            for (byte x : input) {
                parts.add(new byte[] {x});
            }
            return parts;
        }
        int from = 0;
        int cuts = kind < 4 ? 0 : random.nextInt(4) + 1;
        for (int i = 0; i < cuts && from < input.length; i++) {
            int to = from + random.nextInt(input.length - from + 1);
            parts.add(Arrays.copyOfRange(input, from, to));
            from = to;
        }
        parts.add(Arrays.copyOfRange(input, from, input.length));
        return parts;
    }

    private static List<byte[]> seeds() {
        byte[] unix = ProxyHeaders.concat(
                ProxyHeaders.V2_SIGNATURE, new byte[] {0x21, 0x31, 0x00, (byte) 216}, new byte[216]);
        System.arraycopy("/run/lb.sock".getBytes(StandardCharsets.US_ASCII), 0, unix, 16, 12);
        byte[] unspec = ProxyHeaders.concat(ProxyHeaders.V2_SIGNATURE, new byte[] {0x21, 0x00, 0x00, 0x00});
        byte[] udp = ProxyHeaders.v2("203.0.113.7", 53);
        udp[13] = 0x12;
        byte[] ssl = ProxyHeaders.tlv(
                0x20,
                ProxyHeaders.concat(
                        new byte[] {0x07, 0, 0, 0, 0},
                        ProxyHeaders.tlv(0x21, "TLSv1.3".getBytes(StandardCharsets.US_ASCII)),
                        ProxyHeaders.tlv(0x22, "client.example".getBytes(StandardCharsets.US_ASCII))));
        return List.of(
                ProxyHeaders.v2("203.0.113.7", 40_001),
                ProxyHeaders.v2("2001:db8::7", 40_002),
                ProxyHeaders.v2(
                        "203.0.113.7",
                        40_003,
                        ProxyHeaders.concat(
                                ProxyHeaders.tlv(0x01, "ldap".getBytes(StandardCharsets.US_ASCII)),
                                ProxyHeaders.tlv(0x02, "ldap.example".getBytes(StandardCharsets.US_ASCII)),
                                ssl,
                                ProxyHeaders.tlv(0x30, "ns".getBytes(StandardCharsets.US_ASCII)),
                                ProxyHeaders.tlv(0xEA, new byte[24]))),
                ProxyHeaders.v2Local(),
                unspec,
                unix,
                udp,
                ProxyHeaders.v1("203.0.113.7", 40_004),
                ProxyHeaders.v1("2001:db8::7", 40_005),
                "PROXY UNKNOWN\r\n".getBytes(StandardCharsets.US_ASCII));
    }
}
