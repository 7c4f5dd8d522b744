package dev.larch.server.monitor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Lets through the requests that carry {@code Authorization: Bearer TOKEN} with the configured token
 * (RFC 6750 §2.1), compared in constant time; others get 401 with a {@code WWW-Authenticate: Bearer}
 * challenge and no body. Immutable and thread-safe.
 */
final class BearerToken extends Authenticator {
    /** Shorter tokens can be guessed from a scrape interval's worth of tries. */
    static final int MIN_LENGTH = 16;

    private static final String SCHEME = "Bearer ";

    private final byte[] token;

    private BearerToken(byte[] token) {
        this.token = token;
    }

    /**
     * The token on the first line of {@code file}.
     *
     * @throws IOException naming {@code metrics.bearer-token-file} when it cannot be read or the token
     *     is shorter than {@value #MIN_LENGTH} characters
     */
    static BearerToken readFrom(Path file) throws IOException {
        String text;
        try {
            text = Files.readString(file, UTF_8);
        } catch (IOException e) {
            throw new IOException(
                    "cannot read the metrics token file " + file + " (metrics.bearer-token-file): " + e, e);
        }
        String line = text.lines().findFirst().orElse("").strip();
        if (line.length() < MIN_LENGTH) {
            throw new IOException("the metrics token in " + file + " (metrics.bearer-token-file) must be at least "
                    + MIN_LENGTH + " characters");
        }
        return new BearerToken(line.getBytes(UTF_8));
    }

    @Override
    public Result authenticate(HttpExchange exchange) {
        String header = exchange.getRequestHeaders().getFirst("Authorization");
        if (header != null
                && header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())
                && MessageDigest.isEqual(
                        token, header.substring(SCHEME.length()).strip().getBytes(UTF_8))) {
            return new Success(new HttpPrincipal("metrics", "larch"));
        }
        exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"larch\"");
        return new Retry(401);
    }
}
