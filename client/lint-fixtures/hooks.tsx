import { useEffect, useState } from "react";

/** A hook called conditionally, and an effect that reads a value it does not list. */
export function Counter({ visible, step }: { visible: boolean; step: number }) {
  if (visible) {
    useState(0);
  }
  const [count, setCount] = useState(0);
  useEffect(() => {
    setCount((c) => c + step);
  }, []);
  return <span>{count}</span>;
}

/** Kept: hooks at the top level, the effect lists what it reads. */
export function Kept({ step }: { step: number }) {
  const [count, setCount] = useState(0);
  useEffect(() => {
    setCount((c) => c + step);
  }, [step]);
  return <span>{count}</span>;
}
