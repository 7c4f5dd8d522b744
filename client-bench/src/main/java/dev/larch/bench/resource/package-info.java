/**
 * Readings of what a benchmark costs: Linux {@code /proc} counters for one process and for the
 * whole machine, and a Java server's heap and GC time from a Prometheus endpoint or JMX.
 *
 * <p>This package knows nothing of runs or reports; {@code run.ResourceMonitor} turns its readings
 * into a run's figures. Every reader reports what it could not read instead of failing, because a
 * counter that needs privileges must not stop a benchmark.
 */
package dev.larch.bench.resource;
