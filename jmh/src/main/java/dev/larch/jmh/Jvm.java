package dev.larch.jmh;

/** JVM flags every benchmark fork needs: lmdbjava's buffer proxy reflects into java.nio. */
public final class Jvm {
    private Jvm() {
    }

    // Keep in step with <larch.jvm.opens> in the root pom and the launcher's run_module.
    public static final String OPEN_NIO = "--add-opens=java.base/java.nio=ALL-UNNAMED";
    public static final String OPEN_NIO_CH = "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED";
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
}
