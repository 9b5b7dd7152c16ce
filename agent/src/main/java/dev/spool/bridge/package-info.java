/**
 * The boot bridge: the only Spool classes in the boot loader (defined there by the agent, see
 * {@code BootBridge}; the boot class path stays untouched), JDK types only. Advice woven
 * into JDK classes (JUL) and host classes (Jackson, Logback, emitters) calls {@link
 * dev.spool.bridge.Hooks}; the agent publishes its implementation there through volatile fields
 * (a plain volatile read per call; the implementation is immutable once published).
 */
package dev.spool.bridge;
