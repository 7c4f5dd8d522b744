package dev.larch.e2e.sync;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import com.unboundid.ldap.sdk.LDAPException;

/**
 * OpenLDAP slapd in a directory of its own (slapd.conf, db/, slapd.log), back-mdb holding
 * {@code dc=example,dc=com}, in the foreground on 127.0.0.1 and a free port: a syncprov
 * {@linkplain #provider provider} loaded by slapadd, or a syncrepl {@linkplain #consumer consumer}
 * that starts empty. The process is slapd itself (no shell between), so {@link #kill()} is a real
 * SIGKILL, and {@link #restart()} starts it again on the same directory and port: a consumer then
 * resumes from the cookie it keeps in its suffix entry's contextCSN.
 *
 * <p>slapd's debug output goes to {@link #log()}: consumers run with {@code -d sync} by default
 * (override with {@code -Dlarch.sync.consumer-debug=...}, e.g. {@code sync,stats} or {@code any}),
 * which names each entry syncrepl receives and why it refuses one; providers run with {@code -d 0}.
 *
 * <p>Not thread-safe: one test owns it.
 */
public final class SlapdServer implements SyncProvider {
    public static final Path SLAPD = Path.of("/usr/sbin/slapd");
    public static final Path SLAPADD = Path.of("/usr/sbin/slapadd");
    public static final String PASSWORD = "secret";
    /** The rootdn of a provider: neither slapd nor Larch needs an entry for it. */
    public static final String PROVIDER_ROOT_DN = "cn=admin," + SlapdConfig.SUFFIX;
    /** A consumer's own rootdn, distinct from the provider's as in OpenLDAP's tests. */
    public static final String CONSUMER_ROOT_DN = "cn=consumer," + SlapdConfig.SUFFIX;

    static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    static final Duration SLAPADD_TIMEOUT = Duration.ofSeconds(180);
    static final String CONSUMER_DEBUG = System.getProperty("larch.sync.consumer-debug", "sync");

    /** slapds still running when the test JVM exits (a failed or aborted run) are killed, not orphaned. */
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly), "slapd-reaper"));
    }

    private final String name;
    private final Path dir;
    private final String rootDn;
    private final String debug;
    private final int port;
    private Process process;

    private SlapdServer(String name, Path dir, String rootDn, String debug) throws IOException {
        this.name = name;
        this.dir = dir;
        this.rootDn = rootDn;
        this.debug = debug;
        this.port = freePort();
    }

    /** Whether slapd, slapadd and the schemas these servers include are installed. */
    public static boolean installed() {
        return Files.isExecutable(SLAPD)
                && Files.isExecutable(SLAPADD)
                && Files.exists(Path.of(SlapdConfig.SCHEMA_DIR, "inetorgperson.schema"))
                && Files.exists(Path.of(SlapdConfig.SCHEMA_DIR, "nis.schema"));
    }

    /**
     * A syncprov provider in the new directory {@code dir}, loaded from {@code ldif} by
     * {@code slapadd -q -S 1 -w} (which stamps entryUUID, entryCSN and the four create/modify stamps
     * itself) and started. {@code sessionLog} is how many changes syncprov keeps for delta refreshes.
     *
     * <p>{@code -S 1} is not optional: slapadd stamps entryCSNs with server ID 0 whatever the
     * configuration's serverID says, the provider's cookies then carry only server ID 1, and a
     * consumer's present phase deletes a non-present entry only if the cookie has a CSN for the
     * server ID in that entry's entryCSN (and the entryCSN is not newer): deletes would never
     * reach a refreshOnly consumer, nor a consumer refreshed by a present phase. {@code -w} writes
     * the matching contextCSN.
     */
    public static SlapdServer provider(Path dir, Path ldif, int sessionLog) throws IOException {
        SlapdServer slapd = new SlapdServer("provider", Files.createDirectories(dir), PROVIDER_ROOT_DN, "0");
        Files.createDirectories(dir.resolve("db"));
        Files.writeString(slapd.conf(), SlapdConfig.provider(dir, PROVIDER_ROOT_DN, PASSWORD, sessionLog));
        slapd.slapadd(ldif);
        slapd.start();
        return slapd;
    }

    /** A {@link SyncProvider.Starter} for slapd providers keeping {@code sessionLog} changes. */
    public static SyncProvider.Starter providers(int sessionLog) {
        return (dir, ldif) -> provider(dir, ldif, sessionLog);
    }

    /** A consumer with an empty database in the new directory {@code dir}, replicating as {@code syncrepl} says. */
    public static SlapdServer consumer(Path dir, Syncrepl syncrepl) throws IOException {
        SlapdServer slapd = new SlapdServer(
                "consumer " + syncrepl.type() + " rid " + syncrepl.rid(),
                Files.createDirectories(dir),
                CONSUMER_ROOT_DN,
                CONSUMER_DEBUG);
        Files.createDirectories(dir.resolve("db"));
        Files.writeString(slapd.conf(), SlapdConfig.consumer(dir, CONSUMER_ROOT_DN, PASSWORD, syncrepl));
        slapd.start();
        return slapd;
    }

    /**
     * A multi-provider member with an empty database in the new directory {@code dir}, server ID
     * {@code serverId}, replicating from the other member as {@code syncrepl} says and serving its own
     * changes by syncprov (keeping {@code sessionLog} of them); its debug output as a consumer's.
     */
    public static SlapdServer multiProvider(Path dir, int serverId, Syncrepl syncrepl, int sessionLog)
            throws IOException {
        SlapdServer slapd = new SlapdServer(
                "slapd member sid " + serverId, Files.createDirectories(dir), PROVIDER_ROOT_DN, CONSUMER_DEBUG);
        Files.createDirectories(dir.resolve("db"));
        Files.writeString(
                slapd.conf(),
                SlapdConfig.multiProvider(dir, PROVIDER_ROOT_DN, PASSWORD, serverId, syncrepl, sessionLog));
        slapd.start();
        return slapd;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String url() {
        return "ldap://127.0.0.1:" + port;
    }

    @Override
    public String bindDn() {
        return rootDn;
    }

    @Override
    public String password() {
        return PASSWORD;
    }

    public int port() {
        return port;
    }

    /** The running slapd's process ID; fails if it is not running. */
    public long pid() {
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException(name + " is not running");
        }
        return process.pid();
    }

    /**
     * Whether slapd runs, or how it ended, for failure messages: a slapd that crashed explains every
     * refused connection after it (the kernel log names the fault).
     */
    public String state() {
        Process p = process;
        if (p == null) {
            return "stopped";
        }
        if (p.isAlive()) {
            return "running, pid " + p.pid();
        }
        int code = p.exitValue();
        return "exited with " + code + (code > 128 ? " (signal " + (code - 128) + ")" : "");
    }

    /** slapd's stderr and debug output, appended to across restarts. */
    public Path log() {
        return dir.resolve("slapd.log");
    }

    /** The last {@code lines} lines of {@link #log()}, for failure messages. */
    public String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log(), StandardCharsets.ISO_8859_1);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** SIGKILL, then waits for the process to be gone: no shutdown, no final checkpoint. */
    public void kill() throws IOException {
        Process running = process;
        if (running == null) {
            return;
        }
        running.destroyForcibly();
        try {
            if (!running.waitFor(10, TimeUnit.SECONDS)) {
                throw new IOException(name + " (pid " + running.pid() + ") survived SIGKILL for 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while killing " + name, e);
        } finally {
            RUNNING.remove(running);
        }
        process = null;
    }

    /** Starts slapd again on the same directory, configuration and port; it must not be running. */
    public void restart() throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is still running");
        }
        start();
    }

    /** SIGTERM (slapd shuts down cleanly), SIGKILL if it has not exited within 10 seconds. */
    @Override
    public void close() throws IOException {
        Process running = process;
        if (running == null) {
            return;
        }
        running.destroy();
        try {
            if (!running.waitFor(10, TimeUnit.SECONDS)) {
                running.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            running.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            RUNNING.remove(running);
            process = null;
        }
    }

    @Override
    public String toString() {
        return name + " at " + url() + " in " + dir;
    }

    private Path conf() {
        return dir.resolve("slapd.conf");
    }

    private void slapadd(Path ldif) throws IOException {
        Path out = dir.resolve("slapadd.log");
        Process load = new ProcessBuilder(
                        SLAPADD.toString(),
                        "-q",
                        "-S",
                        Integer.toString(SlapdConfig.PROVIDER_SERVER_ID),
                        "-w",
                        "-f",
                        conf().toString(),
                        "-l",
                        ldif.toString())
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        try {
            if (!load.waitFor(SLAPADD_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                load.destroyForcibly();
                throw new IOException("slapadd ran longer than " + SLAPADD_TIMEOUT + ": " + Files.readString(out));
            }
        } catch (InterruptedException e) {
            load.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while slapadd ran", e);
        }
        if (load.exitValue() != 0) {
            throw new IOException("slapadd exited with " + load.exitValue() + ": " + Files.readString(out));
        }
    }

    private void start() throws IOException {
        process = new ProcessBuilder(
                        SLAPD.toString(), "-f", conf().toString(), "-h", url() + "/", "-s", "0", "-d", debug)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()))
                .start();
        RUNNING.add(process);
        awaitAnswering();
    }

    /** Until a bind as the rootdn succeeds: listening alone is not enough (the database may still open). */
    private void awaitAnswering() throws IOException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        LDAPException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                RUNNING.remove(process);
                throw new IOException(name + " exited with " + process.exitValue() + " on start:\n" + logTail(30));
            }
            try {
                connect().close();
                return;
            } catch (LDAPException notYet) {
                last = notYet;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while " + name + " started", e);
            }
        }
        close();
        throw new IOException(name + " did not answer within " + START_TIMEOUT + ": " + last + "\n" + logTail(30));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
