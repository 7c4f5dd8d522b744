package dev.larch.bench.resource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Reads the machine's counters from {@code /proc/stat}, {@code /proc/diskstats} and
 * {@code /proc/net/dev}. Thread-safe.
 */
public final class MachineReader {
    /** /proc/diskstats counts 512-byte sectors whatever the device's own sector size. */
    static final long SECTOR_BYTES = 512;

    private final ProcSource proc;
    private final Predicate<String> countedDisk;
    private final long ticksPerSecond;

    /**
     * @param countedDisk which device names of /proc/diskstats to add up; partitions, loop devices and
     *     device-mapper volumes would count the same bytes twice
     */
    public MachineReader(ProcSource proc, Predicate<String> countedDisk, long ticksPerSecond) {
        this.proc = proc;
        this.countedDisk = countedDisk;
        this.ticksPerSecond = ticksPerSecond;
    }

    /** The real machine: whole disks are the block devices backed by hardware ({@code /sys/block/X/device}). */
    public static MachineReader system() {
        return new MachineReader(
                ProcSource.system(),
                name -> Files.exists(Path.of("/sys/block", name, "device")),
                ClockTicks.perSecond());
    }

    /**
     * @throws IOException if /proc/stat cannot be read (not Linux)
     */
    public MachineCounters read() throws IOException {
        CpuStat cpu = CpuStat.parse(proc.read("stat"));
        List<String> notes = new ArrayList<>();
        long[] disk = null;
        try {
            disk = parseDiskstats(proc.read("diskstats"), countedDisk);
        } catch (IOException | RuntimeException e) {
            notes.add("/proc/diskstats unreadable: " + e.getMessage());
        }
        NetDev net = null;
        try {
            net = NetDev.parse(proc.read("net/dev"));
        } catch (IOException | RuntimeException e) {
            notes.add("/proc/net/dev unreadable: " + e.getMessage());
        }
        return new MachineCounters(
                cpu.cores(),
                nanos(cpu.user()),
                nanos(cpu.system()),
                nanos(cpu.iowait()),
                nanos(cpu.idle()),
                cpu.contextSwitches(),
                disk == null ? null : disk[0],
                disk == null ? null : disk[1],
                net == null ? null : net.receivedBytes(),
                net == null ? null : net.sentBytes(),
                notes);
    }

    private long nanos(long ticks) {
        return ticks * 1_000_000_000L / ticksPerSecond;
    }

    /**
     * Bytes read and written by the counted devices: fields 6 (sectors read) and 10 (sectors written).
     *
     * @throws IllegalArgumentException on a line with too few fields
     */
    public static long[] parseDiskstats(String text, Predicate<String> countedDisk) {
        long read = 0;
        long written = 0;
        for (String line : text.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 3) {
                continue; // blank line
            }
            if (f.length < 10) {
                throw new IllegalArgumentException("diskstats line too short: " + line.trim());
            }
            if (countedDisk.test(f[2])) {
                read += Long.parseLong(f[5]) * SECTOR_BYTES;
                written += Long.parseLong(f[9]) * SECTOR_BYTES;
            }
        }
        return new long[] {read, written};
    }

    /** The parts of /proc/stat a benchmark needs, in clock ticks. */
    public record CpuStat(int cores, long user, long system, long iowait, long idle, long contextSwitches) {
        /**
         * @throws IllegalArgumentException if there is no aggregate {@code cpu} line
         */
        public static CpuStat parse(String text) {
            long[] all = null;
            int cores = 0;
            long ctxt = 0;
            for (String line : text.split("\n")) {
                String[] f = line.trim().split("\\s+");
                if (f[0].equals("cpu")) {
                    all = new long[8];
                    for (int i = 0; i < 8 && i + 1 < f.length; i++) {
                        all[i] = Long.parseLong(f[i + 1]);
                    }
                } else if (f[0].startsWith("cpu")) {
                    cores++;
                } else if (f[0].equals("ctxt") && f.length > 1) {
                    ctxt = Long.parseLong(f[1]);
                }
            }
            if (all == null) {
                throw new IllegalArgumentException("/proc/stat has no aggregate cpu line");
            }
            // user nice system idle iowait irq softirq steal
            return new CpuStat(cores, all[0] + all[1], all[2] + all[5] + all[6], all[4], all[3], ctxt);
        }
    }
}
