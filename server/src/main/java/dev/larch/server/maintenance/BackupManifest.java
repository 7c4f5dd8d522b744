package dev.larch.server.maintenance;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Properties;

import dev.larch.server.store.OwnerOnlyFiles;

/**
 * The description a backup carries beside its {@code data.mdb}, in {@value #FILE}: the store format
 * and suffix it holds, how many entries, and the SHA-256 of the data file, so that a restore can
 * refuse a truncated, altered or foreign copy before it opens (and so maps) a single page of it.
 *
 * @param format the store format version ({@code dev.larch.server.store.StoreFormat})
 * @param suffix the naming context, as configured when the backup was taken
 * @param entries entries in the copy
 * @param bytes size of the copy's data file
 * @param sha256 hex SHA-256 of the copy's data file
 * @param created when the backup was taken (ISO-8601)
 * @param larchVersion the Larch that took it
 */
public record BackupManifest(
        int format, String suffix, long entries, long bytes, String sha256, String created, String larchVersion) {
    /** The manifest's file name inside a backup directory. */
    public static final String FILE = "larch-backup.properties";
    /** The copy's data file inside a backup directory (LMDB's name). */
    public static final String DATA_FILE = "data.mdb";

    void write(Path backup) throws IOException {
        Properties p = new Properties();
        p.setProperty("format", Integer.toString(format));
        p.setProperty("suffix", suffix);
        p.setProperty("entries", Long.toString(entries));
        p.setProperty("bytes", Long.toString(bytes));
        p.setProperty("sha256", sha256);
        p.setProperty("created", created);
        p.setProperty("larch-version", larchVersion);
        try (OutputStream out = OwnerOnlyFiles.newOutputStream(backup.resolve(FILE))) {
            p.store(out, "Larch backup: restore with ./larch restore " + backup.getFileName() + " --data DIR");
        }
    }

    /**
     * @throws MaintenanceException naming what is missing or malformed when {@code backup} is no
     *     Larch backup
     */
    static BackupManifest read(Path backup) {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(backup.resolve(FILE))) {
            p.load(in);
        } catch (NoSuchFileException e) {
            throw new MaintenanceException(backup + " is not a Larch backup: it has no " + FILE);
        } catch (IOException e) {
            throw new MaintenanceException("cannot read " + backup.resolve(FILE) + ": " + e.getMessage());
        }
        try {
            return new BackupManifest(
                    Integer.parseInt(required(p, "format")),
                    required(p, "suffix"),
                    Long.parseLong(required(p, "entries")),
                    Long.parseLong(required(p, "bytes")),
                    required(p, "sha256"),
                    p.getProperty("created", ""),
                    p.getProperty("larch-version", ""));
        } catch (NumberFormatException e) {
            throw new MaintenanceException(backup.resolve(FILE) + " is malformed: " + e.getMessage());
        }
    }

    private static String required(Properties p, String key) {
        String value = p.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new MaintenanceException("the backup manifest has no " + key);
        }
        return value.trim();
    }

    /** Hex SHA-256 of a file, read as a stream (never mapped). */
    static String sha256(Path file) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
