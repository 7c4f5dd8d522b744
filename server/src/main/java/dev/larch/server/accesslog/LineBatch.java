package dev.larch.server.accesslog;

import java.util.List;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;

/**
 * The access lines the writer thread took from its queue at once, handed to the output as one
 * logback event: the output's lock, its roll-over check and its write are then paid once a batch
 * instead of once a line ({@link AccessLineEncoder} writes the lines one after another). A profile
 * of messaging with the access log to a file put the per-line append at 40% of the writer thread.
 * A rolling file therefore rolls over between batches, never inside one.
 *
 * <p>Not a line itself: it has no message, level or logger; only {@link AccessLineEncoder} reads it.
 * Holds the list it is given, which must not change until the append has returned.
 */
final class LineBatch extends LoggingEvent {
    private final List<ILoggingEvent> lines;

    LineBatch(List<ILoggingEvent> lines) {
        this.lines = lines;
    }

    List<ILoggingEvent> lines() {
        return lines;
    }

    /** Each line was prepared when it was queued; the batch has nothing of its own to capture. */
    @Override
    public void prepareForDeferredProcessing() {}
}
