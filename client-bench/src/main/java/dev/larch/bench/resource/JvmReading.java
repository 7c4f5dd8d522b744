package dev.larch.bench.resource;

/**
 * One reading of a Java server's memory and garbage collection. Any field may be null when the
 * source does not expose it.
 *
 * @param heapUsedBytes heap in use now
 * @param heapMaxBytes the heap limit (null when the JVM has none)
 * @param gcSeconds cumulative time spent in garbage collection since the JVM started
 */
public record JvmReading(Long heapUsedBytes, Long heapMaxBytes, Double gcSeconds) {}
