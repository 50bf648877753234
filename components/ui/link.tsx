"use client";
// The console's links. Next.js prefetches a link as soon as it scrolls into view: the runs page
// alone has about fifty, so every page view would send ~50 prefetch requests, each a server
// render. Here a link is prefetched when someone reaches for it (pointer
// over it, focus, touch), which still starts the request before the click lands.
import NextLink from "next/link";
import { useRouter } from "next/navigation";
import type { ComponentProps } from "react";

export default function Link({ onMouseEnter, onFocus, onTouchStart, ...props }: ComponentProps<typeof NextLink>) {
  const router = useRouter();
  const prefetch = () => {
    if (typeof props.href === "string" && props.href.startsWith("/") && props.prefetch !== false) router.prefetch(props.href);
  };
  return (
    <NextLink
      {...props}
      prefetch={false}
      onMouseEnter={(e) => {
        prefetch();
        onMouseEnter?.(e);
      }}
      onFocus={(e) => {
        prefetch();
        onFocus?.(e);
      }}
      onTouchStart={(e) => {
        prefetch();
        onTouchStart?.(e);
      }}
    />
  );
}
