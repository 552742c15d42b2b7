package dev.hotspare.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Guarding and fanning out of the features' listener interfaces ({@code PoolListener}, {@code FleetListener},
 * {@code LockListener}, {@code RolloutListener} and the {@code KpiListener} that extends them all). Every such
 * interface consists of {@code void} default methods only, so one dynamic proxy serves them all instead of a
 * hand-written wrapper per interface and method.
 *
 * <p>A listener is observability: a bug in one must never stop a reconcile pass, a watcher tick or a lock
 * renewal, and must not flood the log either. A guarded listener logs the first failure with its stack trace at
 * WARN and later ones at DEBUG, then carries on as if the call had returned.
 */
public final class Listeners {

    private static final Logger LOG = LoggerFactory.getLogger(Listeners.class);

    private Listeners() {
    }

    /**
     * {@code listener} with every call guarded. Idempotent: a listener that is already guarded (or a fan-out of
     * guarded ones) is returned as it is, and so is {@code none}.
     */
    public static <T> T guarded(Class<T> type, T listener, T none) {
        Objects.requireNonNull(listener, "listener");
        if (listener == none || isOurs(listener)) {
            return listener;
        }
        return proxy(type, new Guard(listener));
    }

    /**
     * One listener that calls each of {@code listeners} in order, each guarded, so one that throws does not keep
     * the others from their call. {@code none} entries are dropped; no listener left gives {@code none}, one gives
     * that one (guarded).
     */
    public static <T> T all(Class<T> type, List<? extends T> listeners, T none) {
        List<T> real = listeners.stream().filter(l -> l != none).map(l -> guarded(type, (T) l, none)).toList();
        return switch (real.size()) {
            case 0 -> none;
            case 1 -> real.get(0);
            default -> proxy(type, new FanOut(real));
        };
    }

    private static boolean isOurs(Object listener) {
        return Proxy.isProxyClass(listener.getClass())
                && (Proxy.getInvocationHandler(listener) instanceof Guard || Proxy.getInvocationHandler(listener) instanceof FanOut);
    }

    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[]{type}, handler));
    }

    /** Answers the {@link Object} methods of a proxy; returns null for any other method. */
    private static Object objectMethod(Object proxy, Method method, Object[] args, Object described) {
        return switch (method.getName()) {
            case "toString" -> described.toString();
            case "hashCode" -> System.identityHashCode(proxy);
            case "equals" -> proxy == args[0];
            default -> throw new IllegalStateException("not an Object method: " + method);
        };
    }

    private static boolean isObjectMethod(Method method) {
        return method.getDeclaringClass() == Object.class;
    }

    private static final class Guard implements InvocationHandler {
        private final Object delegate;
        private final AtomicBoolean warned = new AtomicBoolean();

        Guard(Object delegate) {
            this.delegate = delegate;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (isObjectMethod(method)) {
                return objectMethod(proxy, method, args, "guarded(" + delegate + ")");
            }
            try {
                return method.invoke(delegate, args);
            } catch (InvocationTargetException e) {
                if (!(e.getCause() instanceof RuntimeException failure)) {
                    throw e.getCause();
                }
                if (warned.compareAndSet(false, true)) {
                    LOG.warn("listener {} failed in {}; ignored (further failures are logged at DEBUG)", delegate,
                            method.getName(), failure);
                } else {
                    LOG.debug("listener {} failed in {}; ignored", delegate, method.getName(), failure);
                }
                return null;
            }
        }
    }

    private static final class FanOut implements InvocationHandler {
        private final List<?> listeners;

        FanOut(List<?> listeners) {
            this.listeners = List.copyOf(listeners);
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (isObjectMethod(method)) {
                return objectMethod(proxy, method, args, "all" + listeners);
            }
            for (Object listener : listeners) {
                method.invoke(listener, args); // each is guarded: nothing but an Error escapes
            }
            return null;
        }
    }
}
