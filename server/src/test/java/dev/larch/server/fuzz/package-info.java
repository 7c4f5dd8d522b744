/**
 * A fuzzer for the connection path: real LDAP PDUs of every operation (controls, malformed lengths, deep
 * and wide filters and huge DNs included), mutated, fragmented and pipelined, driven through the real
 * pipeline ({@code LdapChannelInitializer.standalone} on an {@code EmbeddedChannel}) into the real
 * handlers over a real LMDB store, with oracles checked after every case (see {@link
 * dev.larch.server.fuzz.FuzzHarness}). {@link dev.larch.server.fuzz.PduFuzzTest} is both the fixed-seed
 * slice every build runs and what {@code ./larch fuzz} runs.
 *
 * <p>Why a seeded mutator of our own rather than Jazzer: {@code com.code-intelligence:jazzer-junit}
 * 0.24.0 resolves from Maven Central here, and a trivial {@code @FuzzTest} runs on JDK 25 with
 * {@code JAZZER_FUZZ=1}, but (checked 2026-11-23) its bundled ASM cannot instrument JDK 25 class files
 * ("Unsupported class file major version 69"), the number of executions is an annotation attribute
 * ({@code maxExecutions}) and fuzzing mode an environment variable, not options of a run, and a
 * coverage-guided run cannot rebuild case K from the seed alone: each input depends on the coverage of
 * all before it. Here every case is a pure function of {@code (seed, index)} ({@link
 * java.util.SplittableRandom} seeded from both), so {@code ./larch fuzz --seed S --case K} replays one
 * case exactly, and a run of any length is a plain loop.
 *
 * <p>What a replay cannot restore: state that earlier cases left in the shared store and caches. A
 * replayed case runs on a fresh store.
 */
package dev.larch.server.fuzz;
