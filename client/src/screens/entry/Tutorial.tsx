import { useState, type ReactNode } from "react";
import { EXPLORE_MAX_TURNS, MAX_STORED_TURNS, MAX_TURNS, STARTING_TURNS, TURN_INTERVAL_MS } from "@game/schema/rules";
import { useSeason } from "../../realtime/hooks";
import { durationText } from "../../components/format";

interface Step {
  title: string;
  body: ReactNode;
}

function buildSteps(name: string, intervalMs: number): Step[] {
  const interval = durationText(intervalMs);
  return [
    {
      title: "Welcome",
      body: (
        <>
          <p>Welcome, Commander{name ? ` ${name}` : ""}. Your nation has been founded and awaits your orders.</p>
          <p>This briefing takes a minute and covers how turns work, what you can build and how to deal with the other players. You can skip it at any time.</p>
        </>
      ),
    },
    {
      title: "The 4X Strategy Game",
      body: (
        <>
          <p>Every empire grows through the four X's:</p>
          <ul>
            <li>
              <strong>eXplore</strong> new land to make room for your people and buildings.
            </li>
            <li>
              <strong>eXpand</strong> with farms, residences, industry and research labs.
            </li>
            <li>
              <strong>eXploit</strong> your economy: taxes, food, oil and technology.
            </li>
            <li>
              <strong>eXterminate</strong> your rivals when the time is right, or ally with them.
            </li>
          </ul>
          <p>All players are equal; your government type only gives bonuses.</p>
        </>
      ),
    },
    {
      title: "Turns and Time Management",
      body: (
        <>
          <p>
            You start with {STARTING_TURNS} turns. Every {interval} you receive one more, up to {MAX_TURNS} available turns; beyond that they go to storage, up to {MAX_STORED_TURNS} stored turns.
          </p>
          <p>Exploring and building spend turns, at most {EXPLORE_MAX_TURNS} per action. Each turn you spend runs your economy once: tax income, upkeep, food, oil, population growth and research.</p>
          <p>The status bar at the top always shows your turns, money, food and networth.</p>
        </>
      ),
    },
    {
      title: "Core Game Systems",
      body: (
        <ul>
          <li>
            <strong>Exploration</strong>: buy new acres; the price per acre grows with your size.
          </li>
          <li>
            <strong>Buildings</strong>: eight types, each using land. Construction sites raise how many you can build per turn.
          </li>
          <li>
            <strong>Economy</strong>: people pay taxes, farms feed them, oil rigs fuel your vehicles.
          </li>
          <li>
            <strong>Research</strong>: labs generate points that improve your technology.
          </li>
          <li>
            <strong>Networth</strong>: the sum of everything you own; it decides your ranking.
          </li>
        </ul>
      ),
    },
    {
      title: "Alliance and Diplomacy",
      body: (
        <>
          <p>No empire stands alone for long. Join or found an alliance to share intelligence, coordinate wars and defend each other.</p>
          <p>Use the Chat to talk to every commander online, and follow the rankings to see who is rising.</p>
        </>
      ),
    },
    {
      title: "Combat and Warfare",
      body: (
        <>
          <p>Troops, tanks, jets and turrets defend your land and can take land from others. Spies gather intelligence before you strike.</p>
          <p>An army costs upkeep every turn, so grow your economy first and build your forces as you expand.</p>
        </>
      ),
    },
    {
      title: "Ready to Begin",
      body: (
        <>
          <p>Your first orders, Commander:</p>
          <ul>
            <li>Explore some land (Explore in the menu).</li>
            <li>Build farms to feed your people, and a construction site to build faster.</li>
            <li>Keep an eye on the status bar and the turn results report after each action.</li>
          </ul>
          <p>Good luck. Your empire awaits.</p>
        </>
      ),
    },
  ];
}

/** The 7-step tutorial: step dots, 'Step n of 7', Previous, Next / 'Enter Your Empire!', 'Skip Tutorial'. */
export function Tutorial({ username, onComplete }: { username?: string; onComplete(): void }) {
  const season = useSeason();
  const steps = buildSteps(username ?? "", season?.turnIntervalMs || TURN_INTERVAL_MS);
  const [index, setIndex] = useState(0);
  const step = steps[index]!;
  const last = index === steps.length - 1;
  return (
    <div className="screen-center">
      <div className="panel card wide" data-testid="tutorial">
        <div className="row between">
          <span className="muted small">
            Step {index + 1} of {steps.length}
          </span>
          <button type="button" className="btn small ghost" onClick={onComplete}>
            Skip Tutorial
          </button>
        </div>
        <div className="steps" aria-hidden="true">
          {steps.map((s, i) => (
            <span key={s.title} className={`dot ${i < index ? "done" : ""}`} aria-current={i === index ? "step" : undefined} />
          ))}
        </div>
        <h1>{step.title}</h1>
        <div className="tutorial-body">{step.body}</div>
        <div className="row between" style={{ marginTop: "1rem" }}>
          <button type="button" className="btn" disabled={index === 0} title={index === 0 ? "This is the first step" : undefined} onClick={() => setIndex((i) => Math.max(0, i - 1))}>
            Previous
          </button>
          <button type="button" className="btn primary" onClick={() => (last ? onComplete() : setIndex((i) => i + 1))}>
            {last ? "Enter Your Empire!" : "Next"}
          </button>
        </div>
      </div>
    </div>
  );
}
