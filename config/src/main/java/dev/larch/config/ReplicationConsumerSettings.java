package dev.larch.config;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Reads the {@code replication.consumer.<rid>.<field>} keys into {@link ReplicationConsumer}s, ordered by
 * rid. Bind password files are read here, at load, so a missing or unreadable file stops the server at
 * start with a message naming the key. Stateless.
 */
final class ReplicationConsumerSettings {
    /** {@code replication.consumer.}, from the documented form of the keys ({@link SettingCatalog#CONSUMER}). */
    static final String PREFIX = SettingCatalog.CONSUMER.replace("<N>.", "");

    /** The largest password file read: a password, not a document. */
    static final int MAX_PASSWORD_FILE_BYTES = 4096;

    private static final Set<String> FIELDS = Set.of(
            "provider-url",
            "bind-dn",
            "bind-password",
            "bind-password-file",
            "mode",
            "interval-seconds",
            "start-tls",
            "retry-seconds",
            "max-retry-seconds");

    private static final Pattern KEY = Pattern.compile("([1-9][0-9]{0,2})\\.([a-z-]+)");

    private ReplicationConsumerSettings() {}

    /** The consumers the settings name, in rid order; none when they name none. */
    static List<ReplicationConsumer> read(Settings s) throws ConfigException {
        Set<Integer> rids = new TreeSet<>();
        for (String key : s.keysWithPrefix(PREFIX)) {
            Matcher m = KEY.matcher(key.substring(PREFIX.length()));
            if (!m.matches() || !FIELDS.contains(m.group(2))) {
                throw s.error(
                        key,
                        "unknown key; expected " + PREFIX + "<rid 1.." + ReplicationConsumer.MAX_RID + ">.<"
                                + String.join("|", FIELDS.stream().sorted().toList()) + ">");
            }
            rids.add(Integer.parseInt(m.group(1)));
        }
        List<ReplicationConsumer> consumers = new ArrayList<>();
        for (int rid : rids) {
            consumers.add(consumer(s, rid));
        }
        return List.copyOf(consumers);
    }

    private static ReplicationConsumer consumer(Settings s, int rid) throws ConfigException {
        String prefix = PREFIX + rid + ".";
        String urlKey = prefix + "provider-url";
        String url = s.value(urlKey).strip();
        if (url.isEmpty()) {
            throw s.error(urlKey, "must be set: ldap://host:port or ldaps://host:port of the provider");
        }
        URI uri = providerUri(s, urlKey, url);
        boolean ldaps = uri.getScheme().equalsIgnoreCase("ldaps");
        int port = uri.getPort() == -1 ? (ldaps ? 636 : 389) : uri.getPort();
        boolean startTls = s.bool(prefix + "start-tls");
        if (ldaps && startTls) {
            throw s.error(prefix + "start-tls", "must not be true with an ldaps:// provider-url (TLS from the start)");
        }
        String dnKey = prefix + "bind-dn";
        String bindDn = s.value(dnKey).strip();
        if (bindDn.isEmpty() || !Dn.isValid(bindDn)) {
            throw s.error(dnKey, "expected a DN such as cn=replicator,dc=example,dc=com, got '" + bindDn + "'");
        }
        String password = password(s, prefix);
        ReplicationConsumer.Mode mode = ReplicationConsumer.Mode.fromConfigWord(s.choice(prefix + "mode"));
        int interval = s.integer(prefix + "interval-seconds");
        int retry = s.integer(prefix + "retry-seconds");
        int maxRetry = s.integer(prefix + "max-retry-seconds");
        if (maxRetry < retry) {
            throw s.error(
                    prefix + "max-retry-seconds", "must not be less than " + prefix + "retry-seconds (" + retry + ")");
        }
        return new ReplicationConsumer(
                rid, url, uri.getHost(), port, ldaps, startTls, bindDn, password, mode, interval, retry, maxRetry);
    }

    private static URI providerUri(Settings s, String key, String url) throws ConfigException {
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            boolean bare = (uri.getRawPath() == null
                            || uri.getRawPath().isEmpty()
                            || uri.getRawPath().equals("/"))
                    && uri.getRawQuery() == null
                    && uri.getRawFragment() == null
                    && uri.getRawUserInfo() == null;
            if ((scheme.equals("ldap") || scheme.equals("ldaps"))
                    && uri.getHost() != null
                    && bare
                    && (uri.getPort() == -1 || (uri.getPort() >= 1 && uri.getPort() <= 65_535))) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        throw s.error(
                key, "expected ldap://host:port or ldaps://host:port (nothing after the port), got '" + url + "'");
    }

    /** Exactly one of bind-password and bind-password-file; the file's content without a final newline. */
    private static String password(Settings s, String prefix) throws ConfigException {
        String passwordKey = prefix + "bind-password";
        String fileKey = prefix + "bind-password-file";
        Optional<String> password = s.take(passwordKey);
        Path file = s.optionalPath(fileKey);
        if (password.isPresent() && file != null) {
            throw s.error(fileKey, "set either bind-password or bind-password-file, not both");
        }
        if (file == null) {
            if (password.isEmpty() || password.get().isEmpty()) {
                throw s.error(passwordKey, "must be set (or " + fileKey + "): the provider needs a simple bind");
            }
            return password.get();
        }
        String text;
        try {
            if (Files.size(file) > MAX_PASSWORD_FILE_BYTES) {
                throw s.error(
                        fileKey, file + " is larger than " + MAX_PASSWORD_FILE_BYTES + " bytes: not a password file");
            }
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw s.error(fileKey, "cannot read " + file + ": " + describe(e));
        }
        if (text.endsWith("\r\n")) {
            text = text.substring(0, text.length() - 2);
        } else if (text.endsWith("\n")) {
            text = text.substring(0, text.length() - 1);
        }
        if (text.isEmpty()) {
            throw s.error(fileKey, file + " is empty");
        }
        return text;
    }

    private static String describe(IOException e) {
        return switch (e) {
            case NoSuchFileException ignored -> "no such file";
            case AccessDeniedException ignored -> "permission denied";
            case CharacterCodingException ignored -> "not UTF-8 text";
            default -> e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        };
    }
}
