package dev.larch.server.cli;

import java.lang.reflect.Proxy;

/**
 * Runs an action on {@code SIGHUP}, the signal daemons take as "re-read your configuration". Without
 * it the JVM treats SIGHUP like SIGTERM and stops.
 *
 * <p>{@code sun.misc.Signal} (module {@code jdk.unsupported}) is the only way a Java program handles
 * a signal. It is reached by reflection so that a JDK without it, or a platform without SIGHUP
 * (Windows), still starts the server; the reload is then available through nothing but a restart.
 */
final class Hangup {
    private Hangup() {}

    /**
     * Installs {@code action} as the SIGHUP handler; it runs on a thread of its own, one signal after
     * the other.
     *
     * @return false when this JVM or platform cannot handle SIGHUP
     */
    @SuppressWarnings("ReferenceEquality") // the proxy equals itself only: identity is what is meant
    static boolean onHangup(Runnable action) {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            Object hup = signal.getConstructor(String.class).newInstance("HUP");
            Object proxy = Proxy.newProxyInstance(
                    Hangup.class.getClassLoader(), new Class<?>[] {handler}, (self, method, args) -> {
                        if (method.getName().equals("handle")) {
                            action.run();
                            return null;
                        }
                        // Object's methods on the proxy (toString, hashCode, equals).
                        return switch (method.getName()) {
                            case "hashCode" -> System.identityHashCode(self);
                            case "equals" -> self == args[0];
                            default -> "SIGHUP handler";
                        };
                    });
            signal.getMethod("handle", signal, handler).invoke(null, hup, proxy);
            return true;
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return false;
        }
    }
}
