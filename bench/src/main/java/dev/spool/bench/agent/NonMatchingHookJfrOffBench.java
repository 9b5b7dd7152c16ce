package dev.spool.bench.agent;

import org.openjdk.jmh.annotations.Fork;

/**
 * {@link NonMatchingHookBench} with the agent's JFR switch off ({@code spool.jfr.enabled=false}):
 * run both in one JMH run to see that the non-matching call does not depend on the switch (no
 * emission point is on the host's per-call path).
 */
@Fork(value = 1, jvmArgsAppend = "-javaagent:agent/target/spool-agent.jar=spool.jfr.enabled=false")
public class NonMatchingHookJfrOffBench extends NonMatchingHookBench {}
