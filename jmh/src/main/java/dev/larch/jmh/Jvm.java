package dev.larch.jmh;

/**
 * JVM flags every benchmark fork needs: lmdbjava's buffer proxy reflects into java.nio. Keep in
 * step with {@code larch.jvm.opens} in the root pom and the launcher's {@code run_module}.
 */
public final class Jvm {
    public static final String OPEN_NIO = "--add-opens=java.base/java.nio=ALL-UNNAMED";
    public static final String OPEN_NIO_CH = "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED";
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    private Jvm() {}
}
