package dev.larch.server.reload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import dev.larch.config.ConfigException;
import dev.larch.config.LarchConfig;
import dev.larch.config.Setting;
import dev.larch.config.SettingCatalog;
import dev.larch.config.Tls;
import dev.larch.server.read.CurrentSearchLimits;
import dev.larch.server.tls.ServerTlsContext;
import io.netty.handler.ssl.SslContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-reads the config file a server started with ({@code SIGHUP}, {@code ./larch reload}) and
 * applies what can change while it runs; logs one line per changed key saying whether it was applied
 * or needs a restart.
 *
 * <p>Applied live: {@code limits.size-limit}, {@code limits.time-limit-seconds},
 * {@code limits.look-through-limit}, {@code limits.apply-to-admin} (searches that start afterwards),
 * {@code logging.level}, {@code logging.access-log}, {@code access.file} (and a change of that file's
 * content), and the TLS files {@code tls.certificate}, {@code tls.private-key}, {@code tls.keystore},
 * {@code tls.keystore-password}, {@code tls.ca-certificates} (and changes of their content) for
 * connections that start afterwards, provided the server started with TLS (and, for the CA file,
 * with client certificates requested). Every other key needs a restart.
 *
 * <p>All or nothing: the new file is parsed and checked whole, the access file parsed and the TLS
 * context built before anything is applied; any failure is logged and leaves the running
 * configuration entirely in force.
 *
 * <p>Thread-safe: reloads run one at a time.
 */
public final class ConfigReload {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigReload.class);

    /** The search limits a reload applies (declared {@link Setting.Apply#RELOAD}). */
    private static final Set<String> LIMIT_KEYS = Set.of(
            "limits.size-limit", "limits.time-limit-seconds", "limits.look-through-limit", "limits.apply-to-admin");

    private static final Set<String> TLS_IDENTITY_KEYS =
            Set.of("tls.certificate", "tls.private-key", "tls.keystore", "tls.keystore-password");
    private static final String CA_KEY = "tls.ca-certificates";
    private static final String ACCESS_KEY = "access.file";

    /** Reads the config file again, with the command line's overrides applied as at start. */
    @FunctionalInterface
    public interface Source {
        LarchConfig.FileConfig read() throws ConfigException;
    }

    private final Path file;
    private final Source source;
    private final LiveSettings live;
    /** Fixed at start: TLS on or off, client certificates requested or not, cannot change live. */
    private final boolean startedWithTls;

    private final boolean startedWithClientCertificates;

    private Map<String, String> settings;
    private Map<Path, String> digests;

    /**
     * @param file the config file, for messages
     * @param started the config file as the server started with it
     */
    public ConfigReload(Path file, LarchConfig.FileConfig started, Source source, LiveSettings live) {
        this.file = Objects.requireNonNull(file, "file");
        this.source = Objects.requireNonNull(source, "source");
        this.live = Objects.requireNonNull(live, "live");
        this.settings = started.settings();
        this.digests = digests(started.config());
        this.startedWithTls = started.config().tls().configured() && live.tls() != null;
        this.startedWithClientCertificates =
                startedWithTls && started.config().tls().requestsClientCertificates();
    }

    /**
     * Re-reads the file and applies what it can; every line it returns has been logged.
     *
     * @return one line per changed key (applied, or needs a restart), or one line saying nothing
     *     changed, or one line with the error that left the running configuration in force
     */
    public synchronized List<String> reload() {
        LarchConfig.FileConfig next;
        try {
            next = source.read();
        } catch (ConfigException e) {
            return List.of(failed(e.getMessage()));
        }
        LarchConfig config = next.config();
        Map<String, String> nextSettings = next.settings();
        Map<Path, String> nextDigests = digests(config);
        TreeSet<String> changed = new TreeSet<>();
        TreeSet<String> keys = new TreeSet<>(settings.keySet());
        keys.addAll(nextSettings.keySet());
        for (String key : keys) {
            if (!Objects.equals(settings.get(key), nextSettings.get(key))) {
                changed.add(key);
            }
        }
        // The same path with new content (a renewed certificate, edited rules) is a change too.
        Set<String> contentChanged = new TreeSet<>();
        for (Map.Entry<String, Path> e : watchedFiles(config).entrySet()) {
            Path path = e.getValue();
            if (!changed.contains(e.getKey()) && !Objects.equals(digests.get(path), nextDigests.get(path))) {
                contentChanged.add(e.getKey());
            }
        }
        if (changed.isEmpty() && contentChanged.isEmpty()) {
            String line = "reload of " + file + ": nothing changed";
            LOG.info(line);
            return List.of(line);
        }

        // Prepare everything that can fail before applying anything.
        Runnable rules = null;
        SslContext tls = null;
        boolean tlsLive = tlsKeysLive(config);
        try {
            if (changed.contains(ACCESS_KEY) || contentChanged.contains(ACCESS_KEY)) {
                rules = live.access().prepareGlobalRules(config.access().file());
            }
            if (tlsLive && touchesTls(changed, contentChanged)) {
                tls = ServerTlsContext.load(config.tls()).context();
            }
        } catch (IOException | RuntimeException e) {
            return List.of(failed(e.getMessage() == null ? e.toString() : e.getMessage()));
        }

        List<String> lines = new ArrayList<>();
        for (String key : changed) {
            boolean applied = isLive(key, tlsLive);
            lines.add(key + " = " + shown(key, nextSettings.get(key)) + " (was " + shown(key, settings.get(key)) + "): "
                    + (applied ? "applied" : "needs a restart"));
        }
        for (String key : contentChanged) {
            boolean applied = isLive(key, tlsLive);
            lines.add(key + ": the content of " + watchedFiles(config).get(key) + " changed: "
                    + (applied ? "applied" : "needs a restart"));
        }
        if (changed.stream().anyMatch(LIMIT_KEYS::contains)) {
            live.searchLimits(CurrentSearchLimits.of(config.limits()));
        }
        if (changed.contains("logging.level")) {
            LiveSettings.logLevel(config.logging().level());
        }
        if (changed.contains("logging.access-log")) {
            live.accessLog(config.logging().accessLog());
        }
        if (rules != null) {
            rules.run();
        }
        if (tls != null) {
            live.tls(tls);
        }
        settings = nextSettings;
        digests = nextDigests;
        List<String> logged = new ArrayList<>();
        for (String line : lines) {
            String withFile = "reload of " + file + ": " + line;
            LOG.info(withFile);
            logged.add(withFile);
        }
        return List.copyOf(logged);
    }

    private String failed(String reason) {
        String line = "reload of " + file + " failed, the running configuration stays in force: " + reason;
        LOG.error(line);
        return line;
    }

    /** TLS files can be swapped only when the server serves TLS and the new config still does. */
    private boolean tlsKeysLive(LarchConfig config) {
        return startedWithTls && config.tls().configured();
    }

    /** Whether a change of {@code key} applies now, as its declaration says ({@link Setting#apply}). */
    private boolean isLive(String key, boolean tlsLive) {
        Setting.Apply apply = SettingCatalog.find(key).map(Setting::apply).orElse(Setting.Apply.RESTART);
        return switch (apply) {
            case RESTART -> false;
            case RELOAD -> true;
            case RELOAD_WITH_TLS -> tlsLive;
            // Adding or removing the CA file turns client certificates (and SASL EXTERNAL) on or off.
            case RELOAD_WITH_CLIENT_CERTIFICATES ->
                tlsLive && startedWithClientCertificates && settings.containsKey(key);
        };
    }

    private boolean touchesTls(Set<String> changed, Set<String> contentChanged) {
        for (String key : TLS_IDENTITY_KEYS) {
            if (changed.contains(key) || contentChanged.contains(key)) {
                return true;
            }
        }
        return changed.contains(CA_KEY) || contentChanged.contains(CA_KEY);
    }

    /** Secrets are never logged. */
    private static String shown(String key, String value) {
        if (value == null) {
            return "(default)";
        }
        return SettingCatalog.find(key).map(Setting::secret).orElse(false) ? "***" : value;
    }

    /** The files a config points at whose content a reload re-reads, by the key naming them. */
    private static Map<String, Path> watchedFiles(LarchConfig config) {
        Map<String, Path> files = new HashMap<>();
        Tls tls = config.tls();
        putIfSet(files, "tls.certificate", tls.certificate());
        putIfSet(files, "tls.private-key", tls.privateKey());
        putIfSet(files, "tls.keystore", tls.keystore());
        putIfSet(files, CA_KEY, tls.caCertificates());
        putIfSet(files, ACCESS_KEY, config.access().file());
        return files;
    }

    private static void putIfSet(Map<String, Path> files, String key, Path path) {
        if (path != null) {
            files.put(key, path);
        }
    }

    private static Map<Path, String> digests(LarchConfig config) {
        Map<Path, String> out = new HashMap<>();
        for (Path path : watchedFiles(config).values()) {
            out.put(path, digest(path));
        }
        return out;
    }

    /** SHA-256 of a file's content (small files: certificates, keys, rules), or why it cannot be read. */
    private static String digest(Path path) {
        try {
            return HexFormat.of().formatHex(sha256().digest(Files.readAllBytes(path)));
        } catch (IOException e) {
            return "unreadable: " + e;
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
