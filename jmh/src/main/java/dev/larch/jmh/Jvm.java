package dev.larch.jmh;

/**
 * JVM flags every benchmark fork needs: lmdbjava's buffer proxy reflects into java.nio. Keep in
 * step with {@code larch.jvm.opens} in the root pom and the launcher's {@code run_module}.
 */
public final class Jvm {
    public static final String OPEN_NIO = "--add-opens=java.base/java.nio=ALL-UNNAMED";
    public static final String OPEN_NIO_CH = "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED";
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    // A fixed, pre-touched heap: with the default (a small initial heap that grows) a fork's scores
    // drift as G1 resizes, and forks differ by where they stood. EntryCodec's serializeEntry went from
    // +-20.5% (3 forks x 5 x 2 s, default heap) to +-2.0% (5 forks x 10 x 1 s, fixed heap), measured
    // on a quiet machine; the stores' data lives in LMDB's map, off the heap, so 2 GiB is ample.
    public static final String HEAP_MIN = "-Xms2g";
    public static final String HEAP_MAX = "-Xmx2g";
    public static final String PRE_TOUCH = "-XX:+AlwaysPreTouch";

    private Jvm() {}
}
