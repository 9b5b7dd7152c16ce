/**
 * ByteBuddy {@code Advice} inlined into host and JDK classes. Advice code refers to JDK types and
 * {@code dev.spool.bridge.Hooks} only (it runs in the target's class loader), types
 * {@code @Advice.This} as {@code Object}, and catches every throwable but the buffer's
 * {@code IOException}, falling back to the original code.
 */
package dev.spool.agent.advice;
