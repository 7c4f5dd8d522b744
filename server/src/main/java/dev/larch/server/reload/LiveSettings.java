package dev.larch.server.reload;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.larch.server.access.AccessControl;
import dev.larch.server.accesslog.AccessLogSwitch;
import dev.larch.server.read.CurrentSearchLimits;
import dev.larch.server.read.SearchLimits;
import dev.larch.server.tls.ReloadableSslContext;
import io.netty.handler.ssl.SslContext;
import org.slf4j.LoggerFactory;

/**
 * The parts of a running server that a reload may change in place, each replaced whole: the search
 * limits, the log level, the access log switch, the global access rules and the TLS context of new
 * connections. Everything else in the config is read once at start.
 *
 * @param searchLimits the bounds searches start with
 * @param accessLog the access log's switch
 * @param access the access decisions, whose global rules may be replaced
 * @param tls the TLS context of new connections, or null when the server runs without TLS
 */
public record LiveSettings(
        CurrentSearchLimits searchLimits, AccessLogSwitch accessLog, AccessControl access, ReloadableSslContext tls) {

    void searchLimits(SearchLimits limits) {
        searchLimits.set(limits);
    }

    /** The level of the root logger, as {@code logging.level} sets it at start. */
    static void logLevel(String level) {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.toLevel(level, Level.INFO));
    }

    void accessLog(boolean on) {
        accessLog.turn(on);
    }

    void tls(SslContext context) {
        tls.replace(context);
    }
}
