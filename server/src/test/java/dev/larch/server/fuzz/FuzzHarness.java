package dev.larch.server.fuzz;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import dev.larch.config.LarchConfig;
import dev.larch.config.Security;
import dev.larch.schema.LarchSchema;
import dev.larch.schema.SchemaLoadException;
import dev.larch.server.RequestHandlers;
import dev.larch.server.StoredDirectory;
import dev.larch.server.auth.ConfiguredCredentials;
import dev.larch.server.auth.PasswordSchemes;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.net.LdapChannelInitializer;
import dev.larch.server.net.LdapMessageDecoder;
import dev.larch.server.net.ListenerOptions;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.testing.TestServer;
import dev.larch.server.work.WorkerPool;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.model.message.ExtendedResponse;
import org.apache.directory.api.ldap.model.message.IntermediateResponse;
import org.apache.directory.api.ldap.model.message.MessageTypeEnum;
import org.apache.directory.api.ldap.model.message.Response;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;
import org.apache.directory.api.ldap.model.message.SearchResultReference;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.slf4j.LoggerFactory;

/**
 * Runs fuzz cases through the server's real connection path: each case on a fresh
 * {@link EmbeddedChannel} built by {@link LdapChannelInitializer#standalone} (framing, decoding, encoding,
 * dispatcher, read gate) over the real handlers ({@link RequestHandlers#over}) on a real LMDB store in a
 * temporary directory. The store, the handlers and their caches live for the whole run, as in a server
 * that serves many connections; only the connection is new per case.
 *
 * <p>The oracles, checked after every case: no exception escapes the pipeline; nothing is logged at
 * WARN or above (leak reports included); every outbound buffer decodes as exactly one LDAP response;
 * every request the dispatcher received is answered exactly once with the right response type, unless
 * it was abandoned, a later bind abandoned it or the connection ended; the connection ends only by
 * unbind or after a Notice of Disconnection, and nothing follows the notice; a client that does not read
 * is not sent more than a bounded amount; the case settles (nothing left running) within
 * {@link #MAX_SETTLE_ROUNDS} rounds, else it counts as a hang. {@link #probe} checks that a fresh
 * connection still gets correct answers from the store.
 *
 * <p>Not thread-safe: the thread that creates the harness must run every case (it is the event loop
 * the handlers see).
 */
final class FuzzHarness implements AutoCloseable {
    static final String SENTINEL_DN = "cn=fuzz-sentinel,dc=example,dc=com";
    /** Rounds of running tasks and waiting up to a millisecond for other threads before a case is a hang. */
    static final int MAX_SETTLE_ROUNDS = 20_000;
    /** Slack above the input size for what may be written while the client reads nothing. */
    private static final int UNREAD_OUTPUT_SLACK = 1024 * 1024;

    private final StoredDirectory directory;
    private final WriteQueue writes;
    private final WorkerPool workers;
    private final ConfinedExecutor executor;
    private final ConfinedHandler handler;
    private final ListenerOptions options;
    private final LdapMessageDecoder responseDecoder;
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger rootLogger = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final PduCorpus corpus;
    private final int maxSettleRounds;

    FuzzHarness(Path dataDir, PduCorpus corpus) {
        this(dataDir, corpus, UnaryOperator.identity(), MAX_SETTLE_ROUNDS);
    }

    /**
     * @param wrap decorates the real request handler; tests break it on purpose to check the oracles
     * @param maxSettleRounds rounds after which a case that has not settled is a hang
     */
    FuzzHarness(Path dataDir, PduCorpus corpus, UnaryOperator<RequestHandler> wrap, int maxSettleRounds) {
        this.corpus = corpus;
        this.maxSettleRounds = maxSettleRounds;
        LarchConfig config = TestServer.config(dataDir);
        TestServer.importOffline(config, ldif());
        SchemaManager schema;
        try {
            schema = LarchSchema.load(config.schemaFiles());
        } catch (SchemaLoadException e) {
            throw new IllegalStateException("the standard schema does not load", e);
        }
        directory = StoredDirectory.open(config, schema, true);
        writes = new WriteQueue(directory.store());
        workers = new WorkerPool("fuzz-worker", 1, 16);
        executor = new ConfinedExecutor(Thread.currentThread());
        // Failed-bind delays off: they would make the fuzzer wait in real time between cases.
        Security security = LarchConfig.builder()
                .set("security.admin-password", PduCorpus.ADMIN_PASSWORD)
                .set("security.password-scheme", "SSHA")
                .set("security.bind-failure-delay-ms", 0)
                .set("security.bind-failure-max-delay-ms", 0)
                .build()
                .security();
        var credentials = new ConfiguredCredentials(
                directory.directory().schemaNormalizer().dn(PduCorpus.ADMIN_DN),
                PasswordSchemes.hash("SSHA", PduCorpus.ADMIN_PASSWORD.getBytes(StandardCharsets.UTF_8)),
                false,
                "SSHA",
                security.maxPasswordIterations());
        handler = new ConfinedHandler(
                wrap.apply(RequestHandlers.over(
                        directory, schema, config.limits(), security, credentials, writes, workers, "fuzz")),
                executor);
        var listen = config.listen();
        options = new ListenerOptions("127.0.0.1", 0, 1, listen.maxPduBytes(), 0, listen.maxFilterDepth())
                .withRequestLimits(ListenerOptions.DEFAULT_MAX_PDU_BYTES_ANONYMOUS, 16);
        responseDecoder = new LdapMessageDecoder(LdapApiServiceFactory.getSingleton(), Integer.MAX_VALUE, 1000);
        log.start();
        rootLogger.addAppender(log);
    }

    /** The fixture: suffix, two units, one person with a password, the sentinel the probe looks for. */
    private static String ldif() {
        String hash = Base64.getEncoder()
                .encodeToString(PasswordSchemes.hash("SSHA", PduCorpus.USER_PASSWORD.getBytes(StandardCharsets.UTF_8)));
        return TestServer.BASE_LDIF + """

                dn: ou=fuzz,dc=example,dc=com
                objectClass: organizationalUnit
                ou: fuzz

                dn: uid=jdoe,ou=people,dc=example,dc=com
                objectClass: inetOrgPerson
                uid: jdoe
                cn: John Doe
                sn: Doe
                mail: jdoe@example.com
                userPassword:: %s

                dn: %s
                objectClass: organizationalRole
                cn: fuzz-sentinel
                """.formatted(hash, SENTINEL_DN);
    }

    /** Runs one case; returns what went wrong, empty when every oracle held. */
    List<String> run(FuzzCase fuzzCase) {
        List<String> problems = new ArrayList<>();
        clearLog();
        EmbeddedChannel channel = new EmbeddedChannel(LdapChannelInitializer.standalone(options, handler));
        InboundTap tap = new InboundTap();
        channel.pipeline().addAfter("decode", "fuzz-tap", tap);
        Outbound out = new Outbound();
        try {
            List<byte[]> reads = fuzzCase.reads();
            for (int i = 0; i < reads.size() && channel.isOpen(); i++) {
                if (i == fuzzCase.unwritableFrom()) {
                    setWritable(channel, false);
                }
                if (i == fuzzCase.unwritableUntil()) {
                    setWritable(channel, true);
                }
                ByteBuf in = channel.alloc().buffer(reads.get(i).length).writeBytes(reads.get(i));
                channel.writeInbound(in);
                drain(channel, out);
            }
            setWritable(channel, true);
            if (!settle(channel, out)) {
                problems.add("hang: operations still running after " + maxSettleRounds + " rounds (" + handler.inHand()
                        + " in the handlers' hands)");
            }
            boolean closedByServer = !channel.isOpen();
            channel.close();
            settle(channel, out);
            check(tap.events(), out, closedByServer, fuzzCase.totalBytes(), problems);
        } catch (Throwable t) {
            problems.add("exception escaped: " + stackTrace(t));
        } finally {
            channel.finishAndReleaseAll();
            handler.forgetAll();
            executor.forgetScheduled();
        }
        problems.addAll(loggedProblems());
        return problems;
    }

    /** A fresh connection searches the whole tree: success, the suffix and the sentinel among the entries. */
    List<String> probe() {
        List<String> problems = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(LdapChannelInitializer.standalone(options, handler));
        Outbound out = new Outbound();
        try {
            byte[] search = corpus.probeSearch(7);
            channel.writeInbound(channel.alloc().buffer(search.length).writeBytes(search));
            if (!settle(channel, out)) {
                problems.add("probe: the search did not finish");
            }
            Set<String> dns = new HashSet<>();
            ResultCodeEnum result = null;
            for (Response r : out.responses) {
                if (r instanceof SearchResultEntry e) {
                    dns.add(e.getObjectName().getNormName());
                } else if (r instanceof SearchResultDone d) {
                    result = d.getLdapResult().getResultCode();
                }
            }
            if (!out.problems.isEmpty()
                    || result != ResultCodeEnum.SUCCESS
                    || !dns.contains(PduCorpus.SUFFIX)
                    || !dns.contains(SENTINEL_DN)) {
                problems.add("probe: expected success with the suffix and " + SENTINEL_DN + ", got " + result + " and "
                        + dns.size() + " entries " + out.problems);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problems.add("probe: interrupted");
        } finally {
            channel.finishAndReleaseAll();
        }
        return problems;
    }

    /** Problems logged since the last case: WARN and above, leak reports among them. */
    List<String> loggedProblems() {
        List<String> problems = new ArrayList<>();
        synchronized (log) {
            for (ILoggingEvent event : log.list) {
                if (event.getLevel().isGreaterOrEqual(Level.WARN)) {
                    IThrowableProxy t = event.getThrowableProxy();
                    problems.add("logged " + event.getLevel() + " by " + event.getLoggerName() + ": "
                            + event.getFormattedMessage()
                            + (t == null ? "" : " (" + t.getClassName() + ": " + t.getMessage() + ")"));
                }
            }
        }
        return problems;
    }

    private void clearLog() {
        synchronized (log) {
            log.list.clear();
        }
    }

    private static void setWritable(EmbeddedChannel channel, boolean writable) {
        var buffer = channel.unsafe().outboundBuffer();
        if (buffer != null) {
            buffer.setUserDefinedWritability(1, writable);
        }
    }

    /** Runs what is ready on both event loops and collects the output, without waiting. */
    private void drain(EmbeddedChannel channel, Outbound out) {
        for (int round = 0; round < 1000; round++) {
            channel.runPendingTasks();
            boolean progress = executor.runReady() > 0;
            progress |= out.collect(channel, responseDecoder);
            if (!progress) {
                return;
            }
        }
    }

    /** Runs tasks until no operation is in the handlers' hands and nothing is ready; false on a hang. */
    private boolean settle(EmbeddedChannel channel, Outbound out) throws InterruptedException {
        for (int round = 0; round < maxSettleRounds; round++) {
            channel.runPendingTasks();
            boolean progress = executor.runReady() > 0;
            progress |= out.collect(channel, responseDecoder);
            if (!progress && handler.inHand() == 0 && !executor.hasReadyTasks()) {
                return true;
            }
            if (!progress) {
                executor.awaitTask(1); // the writer or a worker is still at it
            }
        }
        return false;
    }

    private static void check(
            List<InboundTap.Event> events,
            Outbound out,
            boolean closedByServer,
            int inputBytes,
            List<String> problems) {
        problems.addAll(out.problems);
        int notice = -1;
        for (int i = 0; i < out.responses.size(); i++) {
            if (out.responses.get(i) instanceof ExtendedResponse e
                    && PduCorpus.NOTICE_OF_DISCONNECTION.equals(e.getResponseName())) {
                notice = i;
                break;
            }
        }
        if (notice >= 0 && notice < out.responses.size() - 1) {
            problems.add("responses after the Notice of Disconnection: "
                    + out.responses.subList(notice + 1, out.responses.size()));
        }
        if (notice >= 0 && !closedByServer) {
            problems.add("Notice of Disconnection sent but the connection stayed open");
        }
        boolean unbound = events.stream().anyMatch(e -> e.kind() == InboundTap.Kind.UNBIND);
        if (closedByServer && notice < 0 && !unbound) {
            problems.add("connection closed without unbind and without a Notice of Disconnection");
        }
        if (out.unreadBytes > UNREAD_OUTPUT_SLACK + 2L * inputBytes) {
            problems.add("wrote " + out.unreadBytes + " bytes to a client that reads nothing");
        }
        checkAnswers(events, out.responses, closedByServer, problems);
    }

    /** Each request answered once, with its response type; unanswered only when excused. */
    private static void checkAnswers(
            List<InboundTap.Event> events, List<Response> responses, boolean closed, List<String> problems) {
        Map<Integer, Integer> asked = new HashMap<>();
        Map<Integer, Integer> required = new HashMap<>();
        Map<Integer, Set<MessageTypeEnum>> types = new HashMap<>();
        for (int i = 0; i < events.size(); i++) {
            InboundTap.Event e = events.get(i);
            if (e.answerType() == null) {
                continue;
            }
            asked.merge(e.messageId(), 1, Integer::sum);
            types.computeIfAbsent(e.messageId(), k -> new HashSet<>()).add(e.answerType());
            if (!closed && !excused(events, i)) {
                required.merge(e.messageId(), 1, Integer::sum);
            }
        }
        Map<Integer, Integer> answered = new HashMap<>();
        for (Response r : responses) {
            int id = r.getMessageId();
            if (r instanceof ExtendedResponse e && PduCorpus.NOTICE_OF_DISCONNECTION.equals(e.getResponseName())) {
                continue; // checked above; a decoder's refusal may carry message ID 0 as well, and is counted
            }
            if (r instanceof SearchResultEntry
                    || r instanceof SearchResultReference
                    || r instanceof IntermediateResponse) {
                if (!asked.containsKey(id)) {
                    problems.add(
                            "intermediate response for message ID " + id + ", which no request has: " + r.getType());
                }
                continue;
            }
            answered.merge(id, 1, Integer::sum);
            Set<MessageTypeEnum> allowed = types.get(id);
            if (allowed == null || !allowed.contains(r.getType())) {
                problems.add("response " + r.getType() + " for message ID " + id + ", expected one of " + allowed);
            }
        }
        answered.forEach((id, n) -> {
            if (n > asked.getOrDefault(id, 0)) {
                problems.add("message ID " + id + " answered " + n + " times for " + asked.getOrDefault(id, 0)
                        + " requests");
            }
        });
        required.forEach((id, n) -> {
            if (answered.getOrDefault(id, 0) < n) {
                problems.add("message ID " + id + " not answered (" + answered.getOrDefault(id, 0) + " answers for " + n
                        + " requests that needed one)");
            }
        });
    }

    /** A request needs no answer once it is abandoned, or a later bind abandons what is outstanding. */
    private static boolean excused(List<InboundTap.Event> events, int index) {
        int id = events.get(index).messageId();
        for (int j = index + 1; j < events.size(); j++) {
            InboundTap.Event later = events.get(j);
            if (later.kind() == InboundTap.Kind.BIND
                    || later.kind() == InboundTap.Kind.UNBIND
                    || later.kind() == InboundTap.Kind.DISCONNECT
                    || (later.kind() == InboundTap.Kind.ABANDON && later.target() == id)) {
                return true;
            }
        }
        return false;
    }

    private static String stackTrace(Throwable t) {
        StringWriter s = new StringWriter();
        t.printStackTrace(new PrintWriter(s));
        return s.toString();
    }

    @Override
    public void close() {
        rootLogger.detachAppender(log);
        writes.close();
        workers.close();
        directory.close();
    }

    /** What the server wrote on one channel, decoded. */
    private static final class Outbound {
        final List<Response> responses = new ArrayList<>();
        final List<String> problems = new ArrayList<>();
        long unreadBytes;

        /** Takes and decodes every outbound buffer; returns whether there was any. */
        boolean collect(EmbeddedChannel channel, LdapMessageDecoder decoder) {
            boolean any = false;
            boolean unread = !channel.isWritable();
            for (Object o = channel.readOutbound(); o != null; o = channel.readOutbound()) {
                any = true;
                if (!(o instanceof ByteBuf buf)) {
                    problems.add("outbound object is not bytes: " + o.getClass().getName());
                    continue;
                }
                try {
                    if (unread) {
                        unreadBytes += buf.readableBytes();
                    }
                    Object decoded = decoder.decode(buf);
                    if (decoded instanceof Response r) {
                        responses.add(r);
                    } else {
                        problems.add("outbound PDU does not decode as a response (" + decoded + "): "
                                + HexFormat.of().formatHex(ByteBufBytes.of(buf, 512)));
                    }
                } finally {
                    buf.release();
                }
            }
            return any;
        }
    }
}
