package dev.larch.server.cli;

import java.nio.file.Path;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.larch.config.ConfigException;
import dev.larch.config.LarchConfig;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/** The options every command shares: which config file and which data directory. */
final class ConfigOptions {
    @Option(names = "--config", paramLabel = "FILE", description = "configuration file (default: embedded defaults)")
    Path config;

    @Option(names = "--data", paramLabel = "DIR", description = "data directory (overrides storage.data-dir)")
    Path data;

    /** The effective configuration; applies its log level. */
    LarchConfig load() throws ConfigException {
        LarchConfig c = config == null ? LarchConfig.defaults() : LarchConfig.load(config);
        if (data != null) {
            c = c.withDataDir(data);
        }
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.toLevel(c.logging().level(), Level.INFO));
        return c;
    }
}
