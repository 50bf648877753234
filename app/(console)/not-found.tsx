import { NotFoundNotice } from "@/components/shell/not-found-notice";

export default function NotFound() {
  return <NotFoundNotice />;
}
