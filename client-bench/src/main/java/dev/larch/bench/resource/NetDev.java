package dev.larch.bench.resource;

/**
 * Parses {@code /proc/net/dev} (or {@code /proc/PID/net/dev}): bytes received and sent, summed over
 * every interface including loopback, since a benchmark on one machine talks over {@code lo}.
 *
 * @param receivedBytes sum of the receive bytes column
 * @param sentBytes sum of the transmit bytes column
 */
public record NetDev(long receivedBytes, long sentBytes) {

    /**
     * @throws IllegalArgumentException if a line after the two header lines has no byte columns
     */
    public static NetDev parse(String text) {
        long rx = 0;
        long tx = 0;
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0 || line.contains("|")) {
                continue; // the two header lines
            }
            String[] f = line.substring(colon + 1).trim().split("\\s+");
            if (f.length < 9) {
                throw new IllegalArgumentException("net/dev line without byte columns: " + line.trim());
            }
            rx += Long.parseLong(f[0]);
            tx += Long.parseLong(f[8]);
        }
        return new NetDev(rx, tx);
    }
}
