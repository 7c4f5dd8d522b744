package dev.larch.server.cli;

import java.nio.file.Path;
import java.util.Map;

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
        LarchConfig c = loadFile().config();
        applyLogLevel(c);
        return c;
    }

    /** Sets the root logger's level to {@code logging.level}. */
    static void applyLogLevel(LarchConfig c) {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.toLevel(c.logging().level(), Level.INFO));
    }

    /**
     * The effective configuration with the settings of {@code --config} as written (none without
     * it), leaving the log level alone: what a reload reads again.
     */
    LarchConfig.FileConfig loadFile() throws ConfigException {
        LarchConfig.FileConfig f = config == null
                ? new LarchConfig.FileConfig(LarchConfig.defaults(), Map.of())
                : LarchConfig.loadWithSettings(config);
        return data == null ? f : new LarchConfig.FileConfig(f.config().withDataDir(data), f.settings());
    }
}
